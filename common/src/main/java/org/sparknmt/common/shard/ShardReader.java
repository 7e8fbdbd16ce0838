package org.sparknmt.common.shard;

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

  /**
   * Moves past the next {@code n} batches without building them: they are parsed, checked and counted
   * as read ones are (the trailer's counts and CRC still hold), but allocate nothing.
   *
   * @throws NoSuchElementException when the shard has fewer than {@code n} batches left
   */
  public void skip(long n) {
    if (n <= 0) {
      return;
    }
    if (next == null) {
      throw new NoSuchElementException("shard " + name + " has no batches left to skip");
    }
    try {
      for (long skipped = 1; skipped < n; skipped++) {
        int size = batchHeader();
        if (size < 0) {
          throw new NoSuchElementException("shard " + name + " has fewer than " + n + " batches left to skip");
        }
        for (int i = 0; i < size; i++) {
          ShardFormat.readVarLong(in);
          skipIds();
          skipIds();
        }
        batches++;
        pairs += size;
      }
      next = readBatch();
    } catch (IOException e) {
      throw corrupt(e);
    }
  }

  private Batch readBatch() throws IOException {
    int size = batchHeader();
    if (size < 0) {
      return null;
    }
    List<EncodedPair> list = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      long lineId = ShardFormat.readVarLong(in);
      list.add(new EncodedPair(lineId, readIds(), readIds()));
    }
    batches++;
    pairs += size;
    return new Batch(list);
  }

  /** The next batch's pair count, or -1 at the trailer, which it checks. */
  private int batchHeader() throws IOException {
    int tag = in.readUnsignedByte();
    if (tag == ShardFormat.END) {
      checkTrailer();
      return -1;
    }
    if (tag != ShardFormat.BATCH) {
      throw new IOException("unexpected record tag " + tag + " after batch " + batches);
    }
    return length(ShardFormat.readVarInt(in), MAX_PAIRS, "pairs");
  }

  private int[] readIds() throws IOException {
    int[] ids = new int[length(ShardFormat.readVarInt(in), MAX_IDS, "subwords in a sentence")];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = ShardFormat.readVarInt(in);
    }
    return ids;
  }

  private void skipIds() throws IOException {
    int length = length(ShardFormat.readVarInt(in), MAX_IDS, "subwords in a sentence");
    for (int i = 0; i < length; i++) {
      ShardFormat.readVarInt(in);
    }
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
