package org.sparknmt.base;

/**
 * The command line cannot be run as given: a bad or missing option, a bad config key or value, a
 * name (file, column, checkpoint) that names nothing, options that exclude each other. sparknmt
 * exits 2 for it; every other error, such as data that fails validation, a checkpoint trained with
 * another vocabulary or a corrupt file, exits 1. It lives here, in the lowest module that reads
 * user input, so that prepare's input checks can throw it too.
 */
public class UsageException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }

  public UsageException(String message, Throwable cause) {
    super(message, cause);
  }
}
