package dev.quiver.operators;

import org.apache.arrow.vector.VectorSchemaRoot;

/** Receives the batches an operator emits. Each batch is owned by the sink, which must close it. */
@FunctionalInterface
public interface BatchSink {
  /** Takes ownership of {@code batch}, also when it throws. */
  void accept(VectorSchemaRoot batch);
}
