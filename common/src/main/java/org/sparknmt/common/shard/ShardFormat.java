package org.sparknmt.common.shard;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The binary shard format, version 1. A shard is:
 * <pre>
 *   magic "SNMTSHD1"
 *   per batch:  0x01, varint pairs, per pair: varlong lineId, varint srcLen, srcLen varint ids,
 *                                             varint tgtLen, tgtLen varint ids
 *   trailer:    0x00, varint batches, varlong pairs, int32 CRC-32 (big-endian) of all bytes before it
 * </pre>
 * Ids are unsigned LEB128 varints (1-2 bytes for vocabularies up to 16k), so a shard is about a
 * third of int32 storage. The trailer makes a truncated or corrupted shard fail loudly when read.
 */
public final class ShardFormat {
  public static final byte[] MAGIC = "SNMTSHD1".getBytes(StandardCharsets.US_ASCII);
  static final int BATCH = 1;
  static final int END = 0;
  /** The file name suffix of shards. */
  public static final String SUFFIX = ".shard";

  private ShardFormat() {}

  static void writeVarLong(DataOutput out, long value) throws IOException {
    while ((value & ~0x7FL) != 0) {
      out.writeByte((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.writeByte((int) value);
  }

  static long readVarLong(DataInput in) throws IOException {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = in.readUnsignedByte();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IOException("varint longer than 64 bits");
  }

  static int readVarInt(DataInput in) throws IOException {
    long value = readVarLong(in);
    if (value > Integer.MAX_VALUE) {
      throw new IOException("value " + value + " does not fit an int");
    }
    return (int) value;
  }
}
