package org.sparknmt.base.run;

import org.apache.hadoop.conf.Configuration;

/** A second process for {@link RunLockTest}: takes the lock of the run {@code args[0]}, says so, and holds it until killed. */
public final class LockHolder {
  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    try (RunLock lock = RunLock.acquire(args[0], "train", false, new Configuration())) {
      System.out.println("held " + lock.holder().pid());
      System.out.flush();
      Thread.sleep(600_000);
    }
  }
}
