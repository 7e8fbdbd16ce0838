package org.sparknmt.common.shard;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/** Writes batches in {@link ShardFormat}; {@link #close()} writes the trailer and closes the stream. */
public final class ShardWriter implements AutoCloseable {
  private final CheckedOutputStream checked;
  private final DataOutputStream out;
  private long batches;
  private long pairs;

  public ShardWriter(OutputStream stream) throws IOException {
    this.checked = new CheckedOutputStream(new BufferedOutputStream(stream, 1 << 16), new CRC32());
    this.out = new DataOutputStream(checked);
    out.write(ShardFormat.MAGIC);
  }

  public void write(Batch batch) throws IOException {
    out.writeByte(ShardFormat.BATCH);
    ShardFormat.writeVarLong(out, batch.pairs().size());
    for (EncodedPair pair : batch.pairs()) {
      ShardFormat.writeVarLong(out, pair.lineId());
      writeIds(pair.source());
      writeIds(pair.target());
    }
    batches++;
    pairs += batch.pairs().size();
  }

  private void writeIds(int[] ids) throws IOException {
    ShardFormat.writeVarLong(out, ids.length);
    for (int id : ids) {
      ShardFormat.writeVarLong(out, id);
    }
  }

  public long batches() {
    return batches;
  }

  public long pairs() {
    return pairs;
  }

  @Override
  public void close() throws IOException {
    out.writeByte(ShardFormat.END);
    ShardFormat.writeVarLong(out, batches);
    ShardFormat.writeVarLong(out, pairs);
    out.flush();
    int crc = (int) checked.getChecksum().getValue();
    out.writeInt(crc);
    out.close();
  }
}
