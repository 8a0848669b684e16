package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.assertResults;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** STRING_AGG against a reference that sorts each group's rows, and its budget error. */
@ExtendWith(ArrowLeakCheck.class)
class StringAggAccumulatorTest {
  // {order column (-1: none), descending}
  private static final int[][] CALLS = {{4, 0}, {6, 1}, {11, 0}, {3, 1}};

  private static List<AggregateCall> calls() {
    List<AggregateCall> calls = new ArrayList<>();
    for (int[] c : CALLS) {
      calls.add(
          AggregateCall.stringAgg(
              9,
              SCHEMA.getFields().get(9).getType(),
              "<" + calls.size() + ">",
              c[0],
              SCHEMA.getFields().get(c[0]).getType(),
              c[1] == 1,
              "s" + calls.size()));
    }
    return calls;
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 10})
  void joinsEachGroupInOrder(int key, BufferAllocator allocator) {
    int[] keys = {key};
    long seed = 2100 + key;
    Map<List<Object>, List<Object>> expected =
        reference(AggregateRuns.inputRows(allocator, seed, keys), key);
    assertResults(AggregateRuns.single(allocator, seed, keys, calls()), expected, 0);
  }

  @Test
  void valuesBeyondTheBudgetFailClearly(BufferAllocator allocator) {
    assertThatThrownBy(
            () -> AggregateRuns.spilledSingle(allocator, 5, new int[] {3}, calls(), 64 * 1024))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("cannot spill");
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Map<List<Object>, List<Object>> reference(List<List<Object>> rows, int key) {
    Map<List<Object>, List<List<Object>>> groups = new HashMap<>();
    for (List<Object> row : rows) {
      groups
          .computeIfAbsent(new ArrayList<>(Arrays.asList(row.get(key))), k -> new ArrayList<>())
          .add(row);
    }
    Map<List<Object>, List<Object>> results = new HashMap<>();
    groups.forEach(
        (k, groupRows) -> {
          List<Object> values = new ArrayList<>();
          for (int c = 0; c < CALLS.length; c++) {
            int column = CALLS[c][0];
            Comparator<Comparable> keys =
                CALLS[c][1] == 1 ? Comparator.reverseOrder() : Comparator.naturalOrder();
            List<List<Object>> sorted = new ArrayList<>(groupRows); // stable
            sorted.sort(
                Comparator.comparing(
                    (List<Object> r) -> (Comparable) r.get(column), Comparator.nullsLast(keys)));
            StringBuilder joined = null;
            for (List<Object> r : sorted) {
              if (r.get(9) != null) {
                joined = joined == null ? new StringBuilder() : joined.append("<" + c + ">");
                joined.append(r.get(9));
              }
            }
            values.add(joined == null ? null : joined.toString());
          }
          results.put(k, values);
        });
    return results;
  }
}
