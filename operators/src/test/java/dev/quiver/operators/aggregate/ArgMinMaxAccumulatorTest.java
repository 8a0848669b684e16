package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.assertResults;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ARG_MIN / ARG_MAX over args and bys of every type: a reference over the rows, SINGLE, PARTIAL +
 * FINAL and spilled runs all agree (the bys are random over their whole range: no ties).
 */
@ExtendWith(ArrowLeakCheck.class)
class ArgMinMaxAccumulatorTest {
  private static final long KB = 1024;

  // {function is max, arg column, by column}
  private static final int[][] CALLS = {
    {0, 9, 4}, {1, 7, 6}, {0, 0, 8}, {1, 10, 11}, {0, 5, 4}, {1, 1, 3}, {1, 9, 8}, {0, 8, 11}
  };

  private static List<AggregateCall> calls() {
    List<AggregateCall> calls = new ArrayList<>();
    for (int[] c : CALLS) {
      calls.add(
          AggregateCall.of(
              c[0] == 1 ? AggregateFunction.ARG_MAX : AggregateFunction.ARG_MIN,
              c[1],
              SCHEMA.getFields().get(c[1]).getType(),
              c[2],
              SCHEMA.getFields().get(c[2]).getType(),
              "a" + calls.size()));
    }
    return calls;
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 9, 10})
  void everyWayAgreesWithTheReference(int key, BufferAllocator allocator) {
    int[] keys = {key};
    long seed = 900 + key;
    List<AggregateCall> calls = calls();
    Map<List<Object>, List<Object>> expected =
        reference(AggregateRuns.inputRows(allocator, seed, keys), key);
    assertThat(expected).hasSizeGreaterThan(1000);
    assertResults(AggregateRuns.single(allocator, seed, keys, calls), expected, 0);
    assertResults(AggregateRuns.partialFinal(allocator, seed, keys, calls, 0), expected, 0);
    assertResults(AggregateRuns.partialFinal(allocator, seed, keys, calls, 64 * KB), expected, 0);
    assertResults(AggregateRuns.spilledSingle(allocator, seed, keys, calls, 64 * KB), expected, 0);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Map<List<Object>, List<Object>> reference(List<List<Object>> rows, int key) {
    Map<List<Object>, Object[]> best = new HashMap<>(); // per group: by, arg per call
    for (List<Object> row : rows) {
      Object[] state =
          best.computeIfAbsent(
              new ArrayList<>(java.util.Arrays.asList(row.get(key))),
              k -> new Object[2 * CALLS.length]);
      for (int c = 0; c < CALLS.length; c++) {
        Object arg = row.get(CALLS[c][1]);
        Comparable by = (Comparable) row.get(CALLS[c][2]);
        if (arg == null || by == null) {
          continue;
        }
        int sign = CALLS[c][0] == 1 ? 1 : -1;
        if (state[2 * c] == null || by.compareTo(state[2 * c]) * sign > 0) {
          state[2 * c] = by;
          state[2 * c + 1] = arg;
        }
      }
    }
    Map<List<Object>, List<Object>> results = new HashMap<>();
    best.forEach(
        (k, state) -> {
          List<Object> values = new ArrayList<>();
          for (int c = 0; c < CALLS.length; c++) {
            values.add(state[2 * c + 1]);
          }
          results.put(k, values);
        });
    return results;
  }
}
