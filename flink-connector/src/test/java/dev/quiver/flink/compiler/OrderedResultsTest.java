package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.AMOUNT;
import static dev.quiver.flink.compiler.TestTables.ID;
import static dev.quiver.flink.compiler.TestTables.KEY;
import static dev.quiver.flink.compiler.TestTables.NAME;
import static dev.quiver.flink.compiler.TestTables.rows;
import static dev.quiver.flink.compiler.TestTables.spread;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MERGE inputs: sorted partitions merged in one task, with and without a global limit or top-k,
 * checked row by row (order included) against the same rows sorted in plain Java.
 */
@ExtendWith(ArrowLeakCheck.class)
class OrderedResultsTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int ROWS = 3000;

  /** k ASC NULLS LAST, id DESC: a total order, since ids are unique. */
  private static final Comparator<List<Object>> BY_KEY_THEN_ID_DESC =
      Comparator.<List<Object>, Long>comparing(
              row -> (Long) row.get(KEY), Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparing(row -> (Long) row.get(ID), Comparator.reverseOrder());

  private static List<List<Object>> sorted(Comparator<List<Object>> order, long skip, long fetch) {
    return rows(0, ROWS).stream()
        .sorted(order)
        .skip(skip)
        .limit(fetch)
        .collect(Collectors.toList());
  }

  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void orderByMergesSortedPartitions(int tasks, BufferAllocator allocator) throws Exception {
    PlanNode plan = spread(0, ROWS, tasks).sort(SortKey.asc(KEY), SortKey.desc(ID)).merge().build();
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows()).isEqualTo(sorted(BY_KEY_THEN_ID_DESC, 0, ROWS));
    assertThat(run.modes()).contains(InputMode.MERGE);
  }

  /**
   * ORDER BY amount DESC, id LIMIT 25 OFFSET 5 as the limit rewrite shapes it (written out, so one
   * task merges too): local top-k, merge, global limit.
   */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void topKMergeAndGlobalLimit(int tasks, BufferAllocator allocator) throws Exception {
    PlanNode plan =
        spread(0, ROWS, tasks)
            .localTopK(List.of(SortKey.desc(AMOUNT), SortKey.asc(ID)), 30)
            .merge()
            .limit(5, 25)
            .build();
    Comparator<List<Object>> order =
        Comparator.<List<Object>, Long>comparing(row -> (Long) row.get(AMOUNT))
            .reversed()
            .thenComparing(row -> (Long) row.get(ID));
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows()).isEqualTo(sorted(order, 5, 25));
    assertThat(run.modes()).contains(InputMode.MERGE);
  }

  /** A sort and a local limit per partition, merged, and a global LIMIT 40 OFFSET 10. */
  @ParameterizedTest(name = "{0} tasks")
  @ValueSource(ints = {1, 2, 4})
  void sortAndGlobalLimit(int tasks, BufferAllocator allocator) throws Exception {
    PlanNode plan =
        spread(0, ROWS, tasks)
            .sort(SortKey.desc(NAME).withNullsLast(), SortKey.asc(ID))
            .localLimit(50)
            .merge()
            .limit(10, 40)
            .build();
    Comparator<List<Object>> order =
        Comparator.<List<Object>, String>comparing(
                row -> (String) row.get(NAME),
                Comparator.nullsLast(Comparator.<String>reverseOrder()))
            .thenComparing(row -> (Long) row.get(ID));
    PlanRuns.Run run = PlanRuns.run(plan, allocator);
    assertThat(run.rows()).isEqualTo(sorted(order, 10, 40));
    assertThat(run.modes()).contains(InputMode.MERGE);
  }
}
