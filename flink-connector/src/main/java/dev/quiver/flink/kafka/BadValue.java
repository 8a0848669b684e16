package dev.quiver.flink.kafka;

/**
 * A value that does not fit the declared schema: which column (or -1 for the value as a whole) and
 * why. Thrown on the decoding path and turned into one error line by {@link PartitionBatcher},
 * which knows the topic, partition and offset; it carries no stack trace.
 */
final class BadValue extends Exception {
  private static final long serialVersionUID = 1L;

  private final int column;

  BadValue(int column, String reason) {
    super(reason, null, false, false);
    this.column = column;
  }

  /** The column index, or -1 if the value as a whole is wrong. */
  int column() {
    return column;
  }
}
