package org.sparknmt.datasets.shard;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;

/**
 * Reads the batches of one shard ({@link ShardFormat}) lazily. The trailer's counts and CRC-32 are
 * checked when the last batch has been read; a mismatch or a truncated file throws, naming the shard.
 * Lengths are checked against sane maxima before anything is allocated for them: a corrupt length
 * would otherwise ask for gigabytes (OutOfMemoryError) long before the CRC could say the file is bad.
 */
public final class ShardReader implements Iterator<Batch>, AutoCloseable {
  /** More pairs than any token budget packs into one batch. */
  static final int MAX_PAIRS = 1 << 20;
  /** More subwords than any sentence a model takes. */
  static final int MAX_IDS = 1 << 16;

  private final String name;
  private final CheckedInputStream checked;
  private final DataInputStream in;
  private Batch next;
  private long batches;
  private long pairs;

  /** @param name the shard's path, for error messages */
  public ShardReader(InputStream stream, String name) {
    this.name = name;
    this.checked = new CheckedInputStream(new BufferedInputStream(stream, 1 << 16), new CRC32());
    this.in = new DataInputStream(checked);
    try {
      byte[] magic = new byte[ShardFormat.MAGIC.length];
      in.readFully(magic);
      if (!Arrays.equals(magic, ShardFormat.MAGIC)) {
        throw new IOException("not a sparknmt shard (bad magic)");
      }
      next = readBatch();
    } catch (IOException e) {
      throw corrupt(e);
    }
  }

  /** Every batch of a shard, read eagerly. */
  public static List<Batch> readAll(InputStream stream, String name) {
    List<Batch> all = new ArrayList<>();
    try (ShardReader reader = new ShardReader(stream, name)) {
      reader.forEachRemaining(all::add);
    }
    return all;
  }

  @Override
  public boolean hasNext() {
    return next != null;
  }

  @Override
  public Batch next() {
    if (next == null) {
      throw new NoSuchElementException();
    }
    Batch current = next;
    try {
      next = readBatch();
    } catch (IOException e) {
      throw corrupt(e);
    }
    return current;
  }

  private Batch readBatch() throws IOException {
    int tag = in.readUnsignedByte();
    if (tag == ShardFormat.END) {
      checkTrailer();
      return null;
    }
    if (tag != ShardFormat.BATCH) {
      throw new IOException("unexpected record tag " + tag + " after batch " + batches);
    }
    int size = length(ShardFormat.readVarInt(in), MAX_PAIRS, "pairs");
    List<EncodedPair> list = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      long lineId = ShardFormat.readVarLong(in);
      list.add(new EncodedPair(lineId, readIds(), readIds()));
    }
    batches++;
    pairs += size;
    return new Batch(list);
  }

  private int[] readIds() throws IOException {
    int[] ids = new int[length(ShardFormat.readVarInt(in), MAX_IDS, "subwords in a sentence")];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = ShardFormat.readVarInt(in);
    }
    return ids;
  }

  private int length(int declared, int max, String what) throws IOException {
    if (declared > max) {
      throw new IOException("batch " + (batches + 1) + " declares " + declared + " " + what + ", more than the "
          + max + " any shard holds (a corrupt length)");
    }
    return declared;
  }

  private void checkTrailer() throws IOException {
    long declaredBatches = ShardFormat.readVarLong(in);
    long declaredPairs = ShardFormat.readVarLong(in);
    int expected = (int) checked.getChecksum().getValue();
    int crc = in.readInt();
    if (declaredBatches != batches || declaredPairs != pairs) {
      throw new IOException("trailer declares " + declaredBatches + " batches / " + declaredPairs
          + " pairs but " + batches + " / " + pairs + " were read");
    }
    if (crc != expected) {
      throw new IOException("CRC-32 mismatch");
    }
    if (in.read() != -1) {
      throw new IOException("bytes after the trailer");
    }
  }

  private UncheckedIOException corrupt(IOException e) {
    String why = e instanceof EOFException ? "truncated (ends before its trailer)" : e.getMessage();
    return new UncheckedIOException(new IOException("shard " + name + " is corrupt: " + why, e));
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
