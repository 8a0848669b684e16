package dev.quiver.operators.aggregate;

import dev.quiver.operators.hash.GroupTable;
import dev.quiver.plan.aggregate.AggregateMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

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
    if (layout.mode == AggregateMode.PARTIAL) {
      return states(layout.output, table, accumulators, layout.stateCounts, from, count, allocator);
    }
    int[] ones = new int[accumulators.length];
    Arrays.fill(ones, 1);
    return build(layout.output, table, accumulators, ones, false, from, count, allocator);
  }

  /**
   * Groups {@code [from, from + count)} as keys, then the partial states of each call with {@code
   * stateCounts[c] > 0} (calls without any are left out), as a new batch of {@code schema}.
   */
  static VectorSchemaRoot states(
      Schema schema,
      GroupTable table,
      Accumulator[] accumulators,
      int[] stateCounts,
      int from,
      int count,
      BufferAllocator allocator) {
    return build(schema, table, accumulators, stateCounts, true, from, count, allocator);
  }

  private static VectorSchemaRoot build(
      Schema schema,
      GroupTable table,
      Accumulator[] accumulators,
      int[] widths,
      boolean states,
      int from,
      int count,
      BufferAllocator allocator) {
    List<Field> fields = schema.getFields();
    List<FieldVector> vectors = new ArrayList<>(fields.size());
    try {
      if (table != null) {
        vectors.addAll(table.keys(from, count, allocator).getFieldVectors());
      }
      for (int c = 0; c < accumulators.length; c++) {
        if (widths[c] == 0) {
          continue;
        }
        // The output columns of this call follow those already made.
        List<FieldVector> out = new ArrayList<>(widths[c]);
        for (int i = 0; i < widths[c]; i++) {
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
      return new VectorSchemaRoot(schema, vectors, count);
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
  }
}
