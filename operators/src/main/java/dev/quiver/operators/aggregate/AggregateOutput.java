package dev.quiver.operators.aggregate;

import dev.quiver.operators.hash.GroupTable;
import dev.quiver.plan.aggregate.AggregateMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/** Builds the output batches of a hash aggregate: group keys, then states or final values. */
final class AggregateOutput {
  private AggregateOutput() {}

  /**
   * Groups {@code [from, from + count)} as a new batch of {@code layout.output}, owned by the
   * caller. {@code table} is null for a global aggregate (no key columns).
   */
  static VectorSchemaRoot build(
      AggregateLayout layout,
      GroupTable table,
      Accumulator[] accumulators,
      int from,
      int count,
      BufferAllocator allocator) {
    List<Field> fields = layout.output.getFields();
    List<FieldVector> vectors = new ArrayList<>(fields.size());
    try {
      if (table != null) {
        vectors.addAll(table.keys(from, count, allocator).getFieldVectors());
      }
      boolean states = layout.mode == AggregateMode.PARTIAL;
      for (int c = 0; c < accumulators.length; c++) {
        int width = states ? layout.stateCounts[c] : 1;
        // The output columns of this call follow those already made.
        List<FieldVector> out = new ArrayList<>(width);
        for (int i = 0; i < width; i++) {
          FieldVector vector = fields.get(vectors.size()).createVector(allocator);
          vectors.add(vector);
          out.add(vector);
        }
        if (states) {
          accumulators[c].writeStates(from, count, out);
        } else {
          accumulators[c].writeFinal(from, count, out.get(0));
        }
      }
      return new VectorSchemaRoot(layout.output, vectors, count);
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
  }
}
