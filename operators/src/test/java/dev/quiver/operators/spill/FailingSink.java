package dev.quiver.operators.spill;

import dev.quiver.operators.BatchSink;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Accepts {@code limit} batches, then fails (closing what it was given, as a sink must): the
 * downstream failure a spilling operator must survive without leaving files or memory behind.
 */
public final class FailingSink implements BatchSink {
  private final int limit;
  private int accepted;

  public FailingSink(int limit) {
    this.limit = limit;
  }

  /** The batches accepted before the failure. */
  public int accepted() {
    return accepted;
  }

  @Override
  public void accept(VectorSchemaRoot batch) {
    batch.close();
    if (accepted == limit) {
      throw new IllegalStateException("sink fails");
    }
    accepted++;
  }
}
