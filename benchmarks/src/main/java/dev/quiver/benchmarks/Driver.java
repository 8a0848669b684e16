package dev.quiver.benchmarks;

import dev.quiver.operators.Operator;
import dev.quiver.operators.memory.BatchTransfer;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The least a task needs to run a chain of operators on one thread: push the input batches into the
 * first operator, then finish every operator in order, as end-of-input travels downstream.
 *
 * <pre>
 *   stored batches ─share─► op[0] ─sink─► op[1] ─sink─► ... ─sink─► result
 *                   finish(0) ───► finish(0) ───► ... (in chain order)
 * </pre>
 *
 * Operators own the batches they are given, so each stored batch goes in as a new root sharing its
 * buffers (reference counted, no copy): the stored data survives every run.
 */
final class Driver {
  private Driver() {}

  /**
   * Pushes a shared view of every batch into {@code input} of {@code operator}, then finishes it.
   */
  static void push(
      Operator operator, int input, List<VectorSchemaRoot> batches, BufferAllocator allocator) {
    for (VectorSchemaRoot batch : batches) {
      operator.add(input, BatchTransfer.share(batch, allocator));
    }
    operator.finish(input);
  }

  /**
   * Pushes {@code batches} through a single-input chain whose operators' sinks feed the next
   * operator's input 0, finishing each in order.
   */
  static void run(List<VectorSchemaRoot> batches, BufferAllocator allocator, Operator... chain) {
    push(chain[0], 0, batches, allocator);
    for (int i = 1; i < chain.length; i++) {
      chain[i].finish(0);
    }
  }
}
