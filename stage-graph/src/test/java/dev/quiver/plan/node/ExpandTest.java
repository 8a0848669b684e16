package dev.quiver.plan.node;

import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.FINAL;
import static dev.quiver.plan.aggregate.AggregateMode.PARTIAL;
import static dev.quiver.plan.aggregate.AggregateMode.SINGLE;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Expand node: schema, grouping ids, partitioning, and the aggregates' global sets. */
class ExpandTest {
  private static final List<List<Integer>> ROLLUP = List.of(keys(1, 3), keys(1), keys());

  @Test
  void keysBecomeNullableAndAGroupingIdIsAppended() {
    Expand expand = (Expand) orders(2).expand(keys(1, 3), ROLLUP).build();
    assertThat(expand.schema())
        .hasToString(
            "(o_id BIGINT NOT NULL, o_cust BIGINT, o_total DECIMAL(15,2), o_date DATE,"
                + " grouping_id BIGINT NOT NULL)");
    assertThat(expand.groupingIds()).containsExactly(0b00L, 0b01L, 0b11L);
    assertThat(expand.groupingIdColumn()).isEqualTo(4);
    assertThat(expand).hasToString("Expand[keys=[#1, #3], sets=[{#1, #3}, {#1}, {}], gid=#4]");
  }

  @Test
  void theFirstKeyIsTheMostSignificantBit() {
    assertThat(Expand.groupingId(keys(5, 2, 7), keys(2))).isEqualTo(0b101L);
    assertThat(Expand.groupingId(keys(5, 2, 7), keys(7, 5))).isEqualTo(0b010L);
  }

  @Test
  void aHashPartitioningSurvivesOnlyOnColumnsThatKeepTheirValues() {
    PlanBuilder byCustomer = orders(2).repartition(hash(1), 4);
    // o_cust is in every set: each copy of a row stays in its partition.
    assertThat(byCustomer.expand(keys(1, 3), List.of(keys(1, 3), keys(1))).build().partitioning())
        .isEqualTo(Partitioning.hash(keys(1), 4));
    // ROLLUP makes o_cust NULL in the grand total: those copies are in the wrong partitions.
    assertThat(byCustomer.expand(keys(1, 3), ROLLUP).build().partitioning())
        .isEqualTo(Partitioning.unknown(4));
    // A column that is no group key keeps its values.
    assertThat(orders(2).repartition(hash(0), 4).expand(keys(1), ROLLUP.subList(1, 3)).build())
        .extracting(PlanNode::partitioning)
        .isEqualTo(Partitioning.hash(keys(0), 4));
    assertThat(orders(2).sort(SortKey.asc(0)).expand(keys(1), List.of(keys())).build().ordering())
        .isEmpty();
  }

  @Test
  void badKeysAndSetsSayWhatIsWrong() {
    assertThatThrownBy(() -> orders(2).expand(keys(1, 9), ROLLUP))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("group key is column #9");
    assertThatThrownBy(() -> orders(2).expand(keys(1), List.of(keys(3))))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("grouping set [3] must be distinct columns of the keys [1]");
    assertThatThrownBy(() -> orders(2).expand(keys(1), List.of()))
        .hasMessageContaining("at least one grouping set");
  }

  @Test
  void onlyPartialOrSinglePartitionAggregatesSeedGlobalSets() {
    PlanBuilder expand = orders(2).expand(keys(1, 3), ROLLUP);
    List<AggregateCall> calls = List.of(expand.call(SUM, 2, "total"));
    PlanBuilder partial = expand.aggregate(PARTIAL, keys(1, 3, 4), calls, List.of(3L));
    assertThat(partial.build())
        .hasToString(
            "Aggregate[PARTIAL, keys=[#1, #3, #4], calls=[sum(#2) AS total], global sets=[3]]");
    assertThat(((Aggregate) partial.build().withChildren(List.of(expand.build()))).globalSets())
        .containsExactly(3L);
    assertThatThrownBy(
            () ->
                partial
                    .repartition(hash(0, 1, 2), 4)
                    .aggregate(FINAL, keys(1, 3, 4), calls, List.of(3L)))
        .hasMessageContaining("seeded by the PARTIAL aggregates");
    Aggregate seedsTwice =
        (Aggregate)
            expand
                .repartition(hash(4), 2)
                .aggregate(SINGLE, keys(1, 3, 4), calls, List.of(3L))
                .build();
    assertThat(seedsTwice.inputsDistributed()).isFalse(); // the planner's pass fixes it
    assertThatThrownBy(seedsTwice::checkInputsDistributed)
        .hasMessageContaining("in each of its 2 partitions");
    assertThatThrownBy(() -> expand.aggregate(PARTIAL, keys(4, 1), calls, List.of(3L)))
        .hasMessageContaining("must be BIGINT NOT NULL, not o_cust BIGINT");
    assertThat(expand.coalesce(1).aggregate(SINGLE, keys(1, 3, 4), calls, List.of(3L)).schema())
        .extracting(s -> s.column(2).type())
        .isEqualTo(SqlType.BIGINT);
  }
}
