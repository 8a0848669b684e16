package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.AMOUNT;
import static dev.quiver.flink.compiler.TestTables.KEY;
import static dev.quiver.flink.compiler.TestTables.rows;
import static dev.quiver.flink.compiler.TestTables.spread;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.sort.SortKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The nested-stage plan of the tests and its answer in plain Java. */
final class NestedPlans {
  private static final int SMALL = 1500;
  private static final int LARGE = 2500;
  private static final long LARGE_FROM = 10_000;

  private NestedPlans() {}

  /**
   *
   *
   * <pre>
   * SELECT t.k, t.total, c.k, c.n
   * FROM (SELECT k, sum(amount) total FROM large GROUP BY k) t
   * JOIN (SELECT k, count(*) n FROM small WHERE amount < 50 GROUP BY k) c ON t.k = c.k
   * ORDER BY t.total DESC, t.k
   * </pre>
   */
  static PlanNode joinOfAggregates(int tasks) {
    PlanBuilder small = spread(0, SMALL, tasks);
    List<AggregateCall> count = List.of(AggregateCall.countStar("n"));
    PlanBuilder counts =
        small
            .filter(call(ScalarFunction.LESS_THAN, small.col(AMOUNT), lit(50L)))
            .aggregate(AggregateMode.PARTIAL, keys(KEY), count)
            .repartition(hash(0), tasks)
            .aggregate(AggregateMode.FINAL, keys(KEY), count);
    PlanBuilder large = spread(LARGE_FROM, LARGE, tasks);
    List<AggregateCall> sum = List.of(large.call(AggregateFunction.SUM, AMOUNT, "total"));
    PlanBuilder totals =
        large
            .aggregate(AggregateMode.PARTIAL, keys(KEY), sum)
            .repartition(hash(0), tasks)
            .aggregate(AggregateMode.FINAL, keys(KEY), sum);
    return totals
        .hashJoin(JoinType.INNER, counts, keys(0), keys(0), JoinDistribution.PARTITIONED)
        .sort(SortKey.desc(1), SortKey.asc(0))
        .merge()
        .build();
  }

  static List<List<Object>> expectedJoinOfAggregates() {
    Map<Long, Long> counts = new HashMap<>();
    for (List<Object> row : rows(0, SMALL)) {
      if ((Long) row.get(AMOUNT) < 50 && row.get(KEY) != null) {
        counts.merge((Long) row.get(KEY), 1L, Long::sum);
      }
    }
    Map<Long, Long> totals = new HashMap<>();
    for (List<Object> row : rows(LARGE_FROM, LARGE)) {
      if (row.get(KEY) != null) {
        totals.merge((Long) row.get(KEY), (Long) row.get(AMOUNT), Long::sum);
      }
    }
    List<List<Object>> expected = new ArrayList<>();
    totals.forEach(
        (key, total) -> {
          if (counts.containsKey(key)) {
            expected.add(List.of(key, total, key, counts.get(key)));
          }
        });
    expected.sort(
        Comparator.<List<Object>, Long>comparing(row -> (Long) row.get(1))
            .reversed()
            .thenComparing(row -> (Long) row.get(0)));
    return expected;
  }
}
