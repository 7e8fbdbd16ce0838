package org.sparknmt.base.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Which storage failures are retried, for how long, and what the error then says. */
class StorageFailuresTest {
  private static final Logger LOG = LoggerFactory.getLogger(StorageFailuresTest.class);

  @Test
  void transientFailuresAreRetriedUntilTheWriteSucceeds() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    long start = System.nanoTime();
    int result = StorageFailures.retrying("write", Duration.ofSeconds(60), LOG, () -> {
      if (attempts.incrementAndGet() < 3) {
        throw new ConnectException("Connection refused");
      }
      return 7;
    });
    assertEquals(7, result);
    assertEquals(3, attempts.get());
    double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds >= 3 && seconds < 10, "pauses of 1 and 2 s expected, took " + seconds + " s");
  }

  @Test
  void outOfSpaceFailsAtTheFirstAttempt() {
    AtomicInteger attempts = new AtomicInteger();
    StorageFailures.RetriesExhausted e = assertThrows(StorageFailures.RetriesExhausted.class,
        () -> StorageFailures.retrying("write", Duration.ofSeconds(60), LOG, () -> {
          attempts.incrementAndGet();
          throw new IOException("writing checkpoint x failed",
              new DSQuotaExceededException("The DiskSpace quota of /runs/x is exceeded: quota = 1 B"));
        }));
    assertEquals(1, attempts.get());
    assertTrue(StorageFailures.isOutOfSpace(e));
    assertEquals("The DiskSpace quota of /runs/x is exceeded: quota = 1 B", e.getMessage());
  }

  @Test
  void retriesStopWhenTheBudgetIsSpentAndTheLastErrorIsKept() {
    AtomicInteger attempts = new AtomicInteger();
    StorageFailures.RetriesExhausted e = assertThrows(StorageFailures.RetriesExhausted.class,
        () -> StorageFailures.retrying("write", Duration.ofSeconds(2), LOG, () -> {
          throw new RemoteException("java.io.IOException", "File /f could only be written to 0 of the 1 minReplication nodes."
              + "\n\tat org.apache.hadoop.hdfs.server.blockmanagement.BlockManager.chooseTarget4NewBlock(BlockManager.java:2315)"
              + " attempt " + attempts.incrementAndGet());
        }));
    // attempt 1 at 0 s, pause 1 s, attempt 2 at 1 s; a pause of 2 s more would pass the budget
    assertEquals(2, e.attempts());
    assertEquals("File /f could only be written to 0 of the 1 minReplication nodes.", e.getMessage());
    assertFalse(StorageFailures.isOutOfSpace(e));
  }

  @Test
  void aStreamThatRethrowsItsErrorOnCloseKeepsThatError() {
    // HDFS's DFSOutputStream throws the exception that broke the pipeline again from close()
    IOException broken = new IOException("All datanodes are bad. Aborting...");
    OutputStream stream = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw broken;
      }

      @Override
      public void close() throws IOException {
        throw broken;
      }
    };
    IOException thrown = assertThrows(IOException.class, () -> StorageFailures.writeAndClose(stream, out -> out.write(1)));
    assertSame(broken, thrown);
    assertEquals(0, thrown.getSuppressed().length);
  }
}
