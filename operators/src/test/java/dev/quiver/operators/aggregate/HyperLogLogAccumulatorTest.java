package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.assertResults;
import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * APPROX_COUNT_DISTINCT: estimates within the sketch's error (exact for a few values), and the
 * sketches merge exactly: PARTIAL + FINAL and spilled runs give the very estimate of SINGLE.
 */
@ExtendWith(ArrowLeakCheck.class)
class HyperLogLogAccumulatorTest {
  private static final long KB = 1024;
  private static final ArrowType I64 = new ArrowType.Int(64, true);
  private static final Schema LONGS =
      new Schema(List.of(Field.nullable("k", I64), Field.nullable("x", I64)));

  @Test
  void estimatesWithinThreeStandardErrors(BufferAllocator allocator) {
    // Group n holds the values 0 .. n-1 (each twice, and NULLs), n up to a million.
    int[] sizes = {0, 1, 2, 3, 10, 100, 1_000, 5_000, 20_000, 100_000, 1_000_000};
    List<VectorSchemaRoot> batches = new ArrayList<>();
    int batchRows = 65_536;
    BigIntVector keys = null;
    BigIntVector xs = null;
    int row = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int n : sizes) {
        for (int v = -1; v < n; v++) { // -1: one NULL per group
          if (keys == null) {
            keys = new BigIntVector("k", allocator);
            xs = new BigIntVector("x", allocator);
            keys.allocateNew(batchRows);
            xs.allocateNew(batchRows);
          }
          keys.set(row, n);
          if (v >= 0) {
            xs.set(row, v * 7919L + n);
          }
          if (++row == batchRows) {
            batches.add(batch(keys, xs, row));
            keys = null;
            row = 0;
          }
        }
      }
    }
    if (keys != null) {
      batches.add(batch(keys, xs, row));
    }
    List<AggregateCall> calls =
        List.of(AggregateCall.of(AggregateFunction.APPROX_COUNT_DISTINCT, 1, I64, "a"));
    Map<List<Object>, List<Object>> result =
        results(run(allocator, LONGS, AggregateMode.SINGLE, new int[] {0}, calls, batches, 100), 1);
    double error = 1.04 / Math.sqrt(HyperLogLogAccumulator.M);
    for (int n : sizes) {
      long estimate = (Long) result.get(List.of((long) n)).get(0);
      if (n <= 100) {
        assertThat(estimate).as("n = %d", n).isEqualTo(n);
      } else {
        assertThat((double) estimate)
            .as("n = %d", n)
            .isBetween(n * (1 - 3 * error), n * (1 + 3 * error));
      }
    }
  }

  private static VectorSchemaRoot batch(BigIntVector keys, BigIntVector xs, int rows) {
    keys.setValueCount(rows);
    xs.setValueCount(rows);
    return new VectorSchemaRoot(List.of(keys, xs));
  }

  @Test
  void stringsAndAGlobalSketchOfNoRows(BufferAllocator allocator) {
    Schema strings = new Schema(List.of(Field.nullable("s", ArrowType.Utf8.INSTANCE)));
    VarCharVector s = new VarCharVector("s", allocator);
    s.allocateNew();
    String[] values = {"a", "b", "a", "", "c", "b", "", "dd"};
    for (int i = 0; i < values.length; i++) {
      s.setSafe(i, values[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    s.setValueCount(values.length + 1); // and one NULL
    List<AggregateCall> calls =
        List.of(
            AggregateCall.of(
                AggregateFunction.APPROX_COUNT_DISTINCT, 0, ArrowType.Utf8.INSTANCE, "a"));
    List<VectorSchemaRoot> batches = new ArrayList<>(List.of(new VectorSchemaRoot(List.of(s))));
    assertThat(
            results(
                run(allocator, strings, AggregateMode.SINGLE, new int[0], calls, batches, 10), 0))
        .containsEntry(List.of(), List.of(5L));
    assertThat(
            results(
                run(
                    allocator,
                    strings,
                    AggregateMode.SINGLE,
                    new int[0],
                    calls,
                    new ArrayList<>(),
                    10),
                0))
        .containsEntry(List.of(), List.of(0L));
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 9, 10})
  void mergedAndSpilledSketchesGiveTheSameEstimates(int key, BufferAllocator allocator) {
    int[] keys = {key};
    long seed = 1300 + key;
    List<AggregateCall> calls = new ArrayList<>();
    for (int column : new int[] {0, 3, 6, 8, 9, 11}) {
      calls.add(
          AggregateCall.of(
              AggregateFunction.APPROX_COUNT_DISTINCT,
              column,
              SCHEMA.getFields().get(column).getType(),
              "a" + column));
    }
    calls.add(AggregateCall.of(AggregateFunction.APPROX_COUNT_DISTINCT, 4, I64, "f").withFilter(0));
    Map<List<Object>, List<Object>> single = AggregateRuns.single(allocator, seed, keys, calls);
    assertThat(single).hasSizeGreaterThan(1000);
    // A few values per group: the estimates are the exact distinct counts, but where two values
    // share a register (about one group in a few hundred); within 5% for the NULL key's hundreds.
    Map<List<Object>, List<Object>> exact =
        exact(AggregateRuns.inputRows(allocator, seed, keys), key, calls);
    assertThat(single.keySet()).isEqualTo(exact.keySet());
    int[] inexact = new int[1];
    exact.forEach(
        (k, counts) -> {
          for (int c = 0; c < counts.size(); c++) {
            long want = (Long) counts.get(c);
            long got = (Long) single.get(k).get(c);
            inexact[0] += got == want ? 0 : 1;
            assertThat((double) got)
                .as("call %d of group %s", c, k)
                .isBetween(Math.min(want - 1, want * 0.95), Math.max(want + 1, want * 1.05));
          }
        });
    assertThat(inexact[0]).isLessThan(exact.size() * calls.size() / 100);
    assertResults(AggregateRuns.partialFinal(allocator, seed, keys, calls, 0), single, 0);
    assertResults(AggregateRuns.partialFinal(allocator, seed, keys, calls, 1024 * KB), single, 0);
    assertResults(AggregateRuns.spilledSingle(allocator, seed, keys, calls, 1024 * KB), single, 0);
  }

  private static Map<List<Object>, List<Object>> exact(
      List<List<Object>> rows, int key, List<AggregateCall> calls) {
    Map<List<Object>, List<Set<Object>>> sets = new HashMap<>();
    for (List<Object> row : rows) {
      List<Set<Object>> groupSets =
          sets.computeIfAbsent(
              new ArrayList<>(java.util.Arrays.asList(row.get(key))),
              k -> {
                List<Set<Object>> list = new ArrayList<>();
                calls.forEach(c -> list.add(new HashSet<>()));
                return list;
              });
      for (int c = 0; c < calls.size(); c++) {
        AggregateCall call = calls.get(c);
        Object value = row.get(call.argument());
        if (value instanceof Float f) {
          value = (double) f;
        }
        if (value instanceof Double d && d == 0.0) {
          value = 0.0; // -0.0 is 0.0
        }
        if (value != null && (!call.hasFilter() || Boolean.TRUE.equals(row.get(call.filter())))) {
          groupSets.get(c).add(value);
        }
      }
    }
    Map<List<Object>, List<Object>> counts = new HashMap<>();
    sets.forEach(
        (k, list) -> {
          List<Object> values = new ArrayList<>();
          list.forEach(set -> values.add((long) set.size()));
          counts.put(k, values);
        });
    return counts;
  }
}
