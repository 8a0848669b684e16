package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.assertResults;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MEDIAN, PERCENTILE_CONT and PERCENTILE_DISC (of integers, floats, dates and decimals) against a
 * reference over sorted lists, and the clear error when the values of a holistic aggregate do not
 * fit its budget (they do not spill).
 */
@ExtendWith(ArrowLeakCheck.class)
class QuantileAccumulatorTest {
  // {function: 0 median, 1 cont, 2 disc; column; fraction × 100}
  private static final int[][] CALLS = {
    {0, 3, 50},
    {0, 6, 50},
    {1, 4, 25},
    {1, 5, 90},
    {2, 1, 50},
    {2, 10, 10},
    {2, 11, 100},
    {2, 6, 0},
    {1, 2, 0},
    // DECIMAL(15,2): median and cont as doubles, disc in the decimal type
    {0, 7, 50},
    {1, 7, 25},
    {2, 7, 75}
  };

  private static List<AggregateCall> calls() {
    List<AggregateCall> calls = new ArrayList<>();
    for (int[] c : CALLS) {
      var type = SCHEMA.getFields().get(c[1]).getType();
      String name = "q" + calls.size();
      calls.add(
          c[0] == 0
              ? AggregateCall.of(AggregateFunction.MEDIAN, c[1], type, name)
              : AggregateCall.percentile(
                  c[0] == 1 ? AggregateFunction.PERCENTILE_CONT : AggregateFunction.PERCENTILE_DISC,
                  c[1],
                  type,
                  c[2] / 100.0,
                  name));
    }
    return calls;
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 9, 10})
  void agreesWithSortedLists(int key, BufferAllocator allocator) {
    int[] keys = {key};
    long seed = 1700 + key;
    Map<List<Object>, List<Object>> expected =
        reference(AggregateRuns.inputRows(allocator, seed, keys), key);
    assertResults(AggregateRuns.single(allocator, seed, keys, calls()), expected, 1e-12);
  }

  @Test
  void valuesBeyondTheBudgetFailClearly(BufferAllocator allocator) {
    assertThatThrownBy(
            () -> AggregateRuns.spilledSingle(allocator, 5, new int[] {3}, calls(), 64 * 1024))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("cannot spill")
        .matches(e -> ((QuiverException) e).code() == ErrorCode.MEMORY_BUDGET_EXCEEDED);
  }

  private static Map<List<Object>, List<Object>> reference(List<List<Object>> rows, int key) {
    Map<List<Object>, List<List<Double>>> values = new HashMap<>();
    Map<List<Object>, List<List<Object>>> raw = new HashMap<>();
    for (List<Object> row : rows) {
      List<Object> k = new ArrayList<>(Arrays.asList(row.get(key)));
      List<List<Double>> lists = values.computeIfAbsent(k, x -> newLists());
      List<List<Object>> raws = raw.computeIfAbsent(k, x -> newLists());
      for (int c = 0; c < CALLS.length; c++) {
        Object v = row.get(CALLS[c][1]);
        if (v != null) {
          raws.get(c).add(v);
          if (v instanceof Number n) {
            lists.get(c).add(n.doubleValue());
          }
        }
      }
    }
    Map<List<Object>, List<Object>> results = new HashMap<>();
    values.forEach(
        (k, lists) -> {
          List<Object> out = new ArrayList<>();
          for (int c = 0; c < CALLS.length; c++) {
            double f = CALLS[c][0] == 0 ? 0.5 : CALLS[c][2] / 100.0;
            if (CALLS[c][0] == 2) {
              List<Object> sorted = new ArrayList<>(raw.get(k).get(c));
              sorted.sort(null);
              int n = sorted.size();
              out.add(n == 0 ? null : sorted.get(Math.max((int) Math.ceil(f * n) - 1, 0)));
            } else {
              List<Double> sorted = new ArrayList<>(lists.get(c));
              sorted.sort(null);
              int n = sorted.size();
              if (n == 0) {
                out.add(null);
              } else {
                double pos = f * (n - 1);
                int lo = (int) Math.floor(pos);
                int hi = (int) Math.ceil(pos);
                double low = sorted.get(lo);
                out.add(lo == hi ? low : low + (sorted.get(hi) - low) * (pos - lo));
              }
            }
          }
          results.put(k, out);
        });
    return results;
  }

  @SuppressWarnings("unchecked")
  private static <T> List<List<T>> newLists() {
    List<List<T>> lists = new ArrayList<>();
    for (int c = 0; c < CALLS.length; c++) {
      lists.add(new ArrayList<>());
    }
    return lists;
  }
}
