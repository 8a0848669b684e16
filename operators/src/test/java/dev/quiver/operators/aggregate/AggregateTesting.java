package dev.quiver.operators.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** Runs hash aggregates over batches and reads their results back as maps, for the tests. */
final class AggregateTesting {
  static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  private AggregateTesting() {}

  static AggregateCall call(AggregateFunction function, int column) {
    return new AggregateCall(
        function,
        column,
        SCHEMA.getFields().get(column).getType(),
        function == AggregateFunction.COUNT_DISTINCT,
        function.name().toLowerCase() + "_" + column);
  }

  /**
   * Runs an aggregate over {@code batches} (taking them), checks the output batch sizes and returns
   * the output batches, owned by the caller.
   */
  static List<VectorSchemaRoot> run(
      BufferAllocator allocator,
      Schema input,
      AggregateMode mode,
      int[] keys,
      List<AggregateCall> calls,
      List<VectorSchemaRoot> batches,
      int targetRows) {
    List<VectorSchemaRoot> outputs = new ArrayList<>();
    OperatorContext context =
        new OperatorContext(allocator, MemoryBudget.unlimited("test"), targetRows);
    try (HashAggregateOperator operator =
        new HashAggregateOperator(context, input, mode, keys, calls, outputs::add)) {
      int fed = 0;
      try {
        for (VectorSchemaRoot batch : batches) {
          fed++;
          operator.add(0, batch);
        }
        operator.finish(0);
      } finally {
        batches.subList(fed, batches.size()).forEach(VectorSchemaRoot::close);
      }
      assertThat(context.budget().used()).isZero(); // released at finish
      for (VectorSchemaRoot output : outputs) {
        assertThat(output.getRowCount()).isBetween(1, targetRows);
        assertThat(output.getSchema()).isEqualTo(operator.outputSchema());
      }
    } catch (RuntimeException | Error e) {
      outputs.forEach(VectorSchemaRoot::close);
      throw e;
    }
    return outputs;
  }

  /** Group key → values of the output batches (which are closed). */
  static Map<List<Object>, List<Object>> results(List<VectorSchemaRoot> outputs, int keyCount) {
    Map<List<Object>, List<Object>> results = new HashMap<>();
    for (VectorSchemaRoot output : outputs) {
      try (output) {
        for (List<Object> row : BatchRows.rows(output)) {
          List<Object> key = row.subList(0, keyCount);
          assertThat(
                  results.put(
                      new ArrayList<>(key), new ArrayList<>(row.subList(keyCount, row.size()))))
              .as("group %s appears twice", key)
              .isNull();
        }
      }
    }
    return results;
  }

  /** Equal maps, with float64 values compared to a relative {@code tolerance} (0: exactly). */
  static void assertResults(
      Map<List<Object>, List<Object>> actual,
      Map<List<Object>, List<Object>> expected,
      double tolerance) {
    assertThat(actual.keySet())
        .isEqualTo(expected.keySet()); // sets: linear, unlike containsExactly
    expected.forEach(
        (key, values) -> {
          List<Object> got = actual.get(key);
          for (int i = 0; i < values.size(); i++) {
            Object want = values.get(i);
            if (tolerance > 0 && want instanceof Double && got.get(i) instanceof Double) {
              double w = (Double) want;
              assertThat((Double) got.get(i))
                  .as("value %d of group %s", i, key)
                  .isCloseTo(w, within(Math.abs(w) * tolerance + 1e-9));
            } else {
              assertThat(got.get(i)).as("value %d of group %s", i, key).isEqualTo(want);
            }
          }
        });
  }

  /**
   * A batch of {@link #SCHEMA} whose {@code keyColumns} come from {@code keys} and other columns
   * from {@code values} (both are closed): repeated keys next to full-range values.
   */
  static VectorSchemaRoot zip(
      VectorSchemaRoot keys, VectorSchemaRoot values, int[] keyColumns, BufferAllocator allocator) {
    try (keys;
        values) {
      List<FieldVector> vectors = new ArrayList<>();
      for (int c = 0; c < SCHEMA.getFields().size(); c++) {
        boolean isKey = false;
        for (int k : keyColumns) {
          isKey |= k == c;
        }
        FieldVector from = (isKey ? keys : values).getVector(c);
        var transfer = from.getTransferPair(allocator);
        transfer.transfer();
        vectors.add((FieldVector) transfer.getTo());
      }
      return new VectorSchemaRoot(SCHEMA, vectors, keys.getRowCount());
    }
  }

  /** Rows of every batch, read before the batches are handed to an operator. */
  static List<List<Object>> rows(List<VectorSchemaRoot> batches) {
    List<List<Object>> rows = new ArrayList<>();
    for (VectorSchemaRoot batch : batches) {
      rows.addAll(BatchRows.rows(batch));
    }
    return rows;
  }
}
