package dev.quiver.plan.distribute;

import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.SINGLE;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.ORDERS;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which scans get their rows spread, and where the exchange goes. */
class SpreadUnbalancedScansTest {
  private static final long MB = 1L << 20;
  private static final SpreadUnbalancedScans AT_2 = SpreadUnbalancedScans.withParallelism(2, MB);

  /** {@code orders} as one file of {@code bytes} bytes, scanned by {@code tasks} tasks. */
  private static PlanBuilder oneFile(long bytes, int tasks) {
    return PlanBuilder.scan(
        new TableSource("orders", ORDERS, List.of(SplitUnit.file("orders.parquet", bytes, 1000))),
        tasks);
  }

  /** {@code orders} as files of the given sizes. */
  private static PlanBuilder files(int tasks, long... sizes) {
    List<SplitUnit> units = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      units.add(SplitUnit.file("orders/part-" + i + ".parquet", sizes[i], 1000));
    }
    return PlanBuilder.scan(new TableSource("orders", ORDERS, units), tasks);
  }

  private static PlanBuilder probedByCustomers(PlanBuilder probe) {
    return probe.hashJoin(
        JoinType.INNER, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST);
  }

  @Test
  void aBroadcastJoinProbingOneLargeFileGetsItsRowsSpreadAfterTheFilter() {
    PlanNode plan =
        probedByCustomers(
                oneFile(64 * MB, 2)
                    .filter(
                        Exprs.call(
                            ScalarFunction.GREATER_THAN,
                            Exprs.col(0, SqlType.BIGINT, "o_id"),
                            Exprs.lit(10L))))
            .build();
    assertThat(PlanPrinter.explain(AT_2.apply(plan)))
        .isEqualTo(
            """
            HashJoin[INNER, BROADCAST, build=[#0], probe=[#1]]  {round-robin(2)}
              Scan[customers [c_id, c_name, c_nation], units=6, tasks=2]  {unknown(2)}
              Repartition[round-robin, 2]  {round-robin(2)}
                Filter[(o_id#0 > 10)]  {single}
                  Scan[orders [o_id, o_cust, o_total, o_date], units=1, tasks=1]  {single}
            """);
  }

  @Test
  void theBuildSideAndSmallOrBalancedScansStayAsTheyAre() {
    // A large one-file build side: it is broadcast whole anyway.
    PlanNode build =
        files(2, 1000, 1000)
            .hashJoin(
                JoinType.INNER, oneFile(64 * MB, 2), keys(1), keys(0), JoinDistribution.BROADCAST)
            .build();
    assertThat(AT_2.apply(build)).isSameAs(build);
    // One file, but the idle task would have read too little to pay for an exchange.
    PlanNode small = probedByCustomers(oneFile(MB, 2)).build();
    assertThat(AT_2.apply(small)).isSameAs(small);
    // Large but balanced: two files of 64 MB over two tasks.
    PlanNode balanced = probedByCustomers(files(2, 64 * MB, 64 * MB)).build();
    assertThat(AT_2.apply(balanced)).isSameAs(balanced);
    // Parallelism 1: nothing to spread to.
    PlanNode single = probedByCustomers(oneFile(64 * MB, 1)).build();
    assertThat(SpreadUnbalancedScans.withParallelism(1, 0).apply(single)).isSameAs(single);
  }

  @Test
  void unequalFilesKeepTheirTasksAndAreSpreadWhenOneTaskReadsFarMore() {
    // 96 MB and 16 MB over two tasks: one reads 96, the mean is 56.
    PlanNode plan = probedByCustomers(files(2, 96 * MB, 16 * MB)).build();
    PlanNode spread = AT_2.apply(plan);
    assertThat(spread.child(1)).hasToString("Repartition[round-robin, 2]");
    assertThat(spread.child(1).child(0))
        .hasToString("Scan[orders [o_id, o_cust, o_total, o_date], units=2, tasks=2]");
  }

  @Test
  void aPartialAggregateIsSpreadButNotOneWhoseRowsAreHashedRightAway() {
    PlanBuilder scan = oneFile(64 * MB, 2);
    PlanNode summed = scan.aggregate(SINGLE, keys(1), scan.call(SUM, 2, "total")).build();
    assertThat(AT_2.apply(summed).child(0)).hasToString("Repartition[round-robin, 2]");

    AggregateCall distinct =
        new AggregateCall(AggregateFunction.COUNT, 1, SqlType.BIGINT.arrow(), true, "d");
    PlanNode counted = scan.aggregate(SINGLE, keys(3), distinct).build();
    assertThat(AT_2.apply(counted)).isSameAs(counted);

    PlanNode partitioned =
        scan.hashJoin(
                JoinType.INNER, files(2, 1000), keys(0), keys(1), JoinDistribution.PARTITIONED)
            .build();
    assertThat(AT_2.apply(partitioned)).isSameAs(partitioned);
  }

  @Test
  void aSortOfOneLargeFileSortsInEveryTaskAndTheResultAloneIsNotSpread() {
    PlanNode sorted = oneFile(64 * MB, 2).orderBy(SortKey.asc(3)).build();
    assertThat(AT_2.apply(sorted).child(0)).hasToString("Repartition[round-robin, 2]");
    PlanNode scanOnly = oneFile(64 * MB, 2).select(0, 1).build();
    assertThat(AT_2.apply(scanOnly)).isSameAs(scanOnly);
  }

  @Test
  void thePassIsIdempotentAndTheEnforcedPlanKeepsTheSpreadPartitions() {
    PlanNode plan = probedByCustomers(oneFile(64 * MB, 2)).build();
    PlanNode once = AT_2.apply(plan);
    assertThat(AT_2.apply(once)).isSameAs(once);
    PlanNode enforced = EnforceDistribution.withParallelism(2).apply(once);
    assertThat(PlanPrinter.explain(enforced))
        .isEqualTo(
            """
            HashJoin[INNER, BROADCAST, build=[#0], probe=[#1]]  {round-robin(2)}
              Broadcast  {single}
                Scan[customers [c_id, c_name, c_nation], units=6, tasks=2]  {unknown(2)}
              Repartition[round-robin, 2]  {round-robin(2)}
                Scan[orders [o_id, o_cust, o_total, o_date], units=1, tasks=1]  {single}
            """);
  }

  @Test
  void rejectsBadSettings() {
    assertThatThrownBy(() -> SpreadUnbalancedScans.withParallelism(0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SpreadUnbalancedScans.withParallelism(2, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
