package org.sparknmt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.sparknmt.base.run.RunLock;
import org.sparknmt.testkit.S3Server;
import org.sparknmt.translate.TranslationModel;

/**
 * Wrong credentials on {@code s3a://}, against a server that checks them as S3 does (S3Proxy): what
 * {@code prepare} and {@code train} (the run lock, their first access) and {@code translate} and
 * {@code evaluate} (the model, theirs) print is one line naming the object of the run that was refused and
 * the settings to check, not the SDK's exception.
 */
class S3CredentialsTest {
  @RegisterExtension static final S3Server S3 = S3Server.checkingCredentials();
  private static final String CHECK = "check fs.s3a.access.key and fs.s3a.secret.key (or fs.s3a.aws.credentials.provider)"
      + " and their permissions on the bucket";

  @Test
  void theServerAcceptsTheRightKeys() throws IOException {
    try (RunLock lock = RunLock.acquire(S3.uri("accepted"), "train", false, S3.hadoop())) {
      // taken: the refusals below are the keys', not the server's
    }
  }

  @Test
  void aWrongSecretKeyIsOneLineNamingTheRunAndTheSettings() {
    Configuration wrong = S3.hadoop();
    wrong.set("fs.s3a.secret.key", "not-the-secret");
    IOException refused = assertThrows(IOException.class, () -> RunLock.acquire(S3.uri("run"), "train", false, wrong));
    assertEquals(S3.uri("run") + ": access denied (SignatureDoesNotMatch): " + CHECK, ExitCodes.describe(refused));
  }

  @Test
  void anUnknownAccessKeyIsOneLineNamingTheRunAndTheSettings() {
    Configuration unknown = S3.hadoop();
    unknown.set("fs.s3a.access.key", "nobody");
    IOException refused = assertThrows(IOException.class,
        () -> TranslationModel.load(S3.uri("run"), "latest", unknown));
    // the model's first request is a HEAD, whose refusal carries no error code
    assertEquals(S3.uri("run/data/manifest.json") + ": access denied: " + CHECK, ExitCodes.describe(refused));
  }

  @Test
  void noCredentialsAtAllIsOneLineNamingTheRunAndTheSettings() {
    Configuration none = S3.hadoop();
    none.unset("fs.s3a.access.key");
    none.unset("fs.s3a.secret.key");
    IOException refused = assertThrows(IOException.class, () -> RunLock.acquire(S3.uri("run"), "prepare", false, none));
    assertEquals(S3.uri("run") + ": access denied: " + CHECK, ExitCodes.describe(refused));
  }
}
