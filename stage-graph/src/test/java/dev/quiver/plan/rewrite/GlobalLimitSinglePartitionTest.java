package dev.quiver.plan.rewrite;

import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.sort.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class GlobalLimitSinglePartitionTest {
  private final PlanRewrite rewrite = new GlobalLimitSinglePartition();

  @Test
  void globalLimitGathersAfterALocalLimit() {
    PlanNode rewritten = rewrite.apply(orders(3).limit(5, 10).build());
    assertThat(shape(rewritten))
        .containsExactly(
            "Limit[GLOBAL, offset=5, fetch=10]",
            "  Coalesce[3 -> 1]",
            "    Limit[LOCAL, offset=0, fetch=15]",
            "      Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=3]");
    assertThat(rewritten.partitioning()).isEqualTo(Partitioning.single());
  }

  @Test
  void sortedInputIsMergedNotGathered() {
    PlanNode rewritten = rewrite.apply(orders(3).sort(SortKey.asc(3)).limit(0, 10).build());
    assertThat(shape(rewritten).get(1)).isEqualTo("  SortPreservingMerge[#3 ASC NULLS LAST]");
    assertThat(rewritten.ordering()).containsExactly(SortKey.asc(3));
  }

  @Test
  void globalTopKBecomesLocalTopKMergeAndLimit() {
    PlanNode rewritten = rewrite.apply(orders(3).topK(List.of(SortKey.desc(2)), 10, 5).build());
    assertThat(shape(rewritten))
        .containsExactly(
            "Limit[GLOBAL, offset=5, fetch=10]",
            "  SortPreservingMerge[#2 DESC NULLS FIRST]",
            "    TopK[LOCAL, #2 DESC NULLS FIRST, offset=0, fetch=15]",
            "      Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=3]");
  }

  @Test
  void anExistingLocalLimitIsKeptNotRepeated() {
    PlanNode rewritten = rewrite.apply(orders(3).localLimit(10).limit(0, 10).build());
    assertThat(shape(rewritten))
        .containsExactly(
            "Limit[GLOBAL, offset=0, fetch=10]",
            "  Coalesce[3 -> 1]",
            "    Limit[LOCAL, offset=0, fetch=10]",
            "      Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=3]");
  }

  @Test
  void offsetWithoutFetchNeedsNoLocalLimit() {
    PlanNode rewritten = rewrite.apply(orders(3).limit(7, Limit.ALL).build());
    assertThat(shape(rewritten))
        .containsExactly(
            "Limit[GLOBAL, offset=7, fetch=ALL]",
            "  Coalesce[3 -> 1]",
            "    Scan[orders [o_id, o_cust, o_total, o_date], units=13, tasks=3]");
  }

  @Test
  void limitsThatAreAlreadyRightAreLeftAlone() {
    PlanNode single = orders(1).limit(0, 10).build();
    PlanNode noOp = orders(3).limit(0, Limit.ALL).build();
    PlanNode local = orders(3).localLimit(10).build();
    PlanNode localTopK = orders(3).localTopK(List.of(SortKey.asc(0)), 3).build();
    for (PlanNode plan : List.of(single, noOp, local, localTopK)) {
      assertThat(rewrite.apply(plan)).isSameAs(plan);
    }
  }

  @Test
  void aParentThatNeedsTheOldPartitioningGetsItBack() {
    // A global limit as the probe side of a partitioned join: the limit becomes one partition, and
    // the join still needs hash([#1], 4) there, so the rewrite hashes the limited rows again.
    PlanNode plan =
        orders(2)
            .repartition(hash(1), 4)
            .limit(0, 100)
            .hashJoin(
                JoinType.INNER,
                customers(2).repartition(hash(0), 4),
                keys(0),
                keys(1),
                JoinDistribution.PARTITIONED)
            .build();
    PlanNode rewritten = rewrite.apply(plan);
    assertThat(rewritten.child(1)).hasToString("Repartition[hash([#1]), 4]");
    assertThat(rewritten.child(1).child(0)).hasToString("Limit[GLOBAL, offset=0, fetch=100]");
    assertThat(rewritten.child(1).child(0).partitions()).isEqualTo(1);
    assertThat(rewritten.partitioning()).isEqualTo(plan.partitioning());
  }

  private static List<String> shape(PlanNode plan) {
    return PlanPrinter.explain(plan)
        .lines()
        .map(line -> line.substring(0, line.indexOf("  {")))
        .collect(java.util.stream.Collectors.toList());
  }
}
