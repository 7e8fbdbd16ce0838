package org.sparknmt.base.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Whether a checkpoint folder can be trusted: {@link CheckpointStore#CHECKSUMS} holds the SHA-256 of
 * each of its other files, written by {@link CheckpointStore} and compared here before a checkpoint
 * is first listed by a store or loaded.
 */
final class CheckpointChecksums {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CheckpointChecksums() {}

  /** See {@link CheckpointStore#verify}. */
  static Optional<String> verify(Path folder, Configuration hadoop) throws IOException {
    try {
      FileSystem fs = folder.getFileSystem(hadoop);
      Path checksumFile = new Path(folder, CheckpointStore.CHECKSUMS);
      if (!fs.exists(checksumFile)) {
        return Optional.of(CheckpointStore.CHECKSUMS + " is missing");
      }
      Map<String, String> expected;
      try (InputStream in = fs.open(checksumFile)) {
        expected = JSON.readValue(in, new TypeReference<Map<String, String>>() {});
      } catch (JsonProcessingException e) {
        return Optional.of(CheckpointStore.CHECKSUMS + " is not valid JSON: " + e.getOriginalMessage());
      }
      if (expected == null) {
        return Optional.of(CheckpointStore.CHECKSUMS + " holds null, not the checksums");
      }
      List<String> files = expected.containsKey(CheckpointStore.OUTER)
          ? List.of(CheckpointStore.MODEL, CheckpointStore.STATE, CheckpointStore.OUTER)
          : List.of(CheckpointStore.MODEL, CheckpointStore.STATE);
      for (String file : files) {
        Path path = new Path(folder, file);
        if (expected.get(file) == null) {
          return Optional.of(CheckpointStore.CHECKSUMS + " has no entry for " + file);
        }
        if (!fs.exists(path)) {
          return Optional.of(file + " is missing");
        }
        String actual = sha256(fs, path);
        if (!actual.equals(expected.get(file))) {
          return Optional.of(file + " has SHA-256 " + actual + ", expected " + expected.get(file));
        }
      }
      return Optional.empty();
    } catch (ChecksumException e) {
      return Optional.of("damaged: " + e.getMessage());
    }
  }

  private static String sha256(FileSystem fs, Path file) throws IOException {
    MessageDigest digest = sha256();
    try (InputStream in = new DigestInputStream(fs.open(file), digest)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new UncheckedIOException(new IOException("no SHA-256 in this JVM", e));
    }
  }
}
