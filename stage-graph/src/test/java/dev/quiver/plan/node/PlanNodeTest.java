package dev.quiver.plan.node;

import static dev.quiver.plan.aggregate.AggregateFunction.AVG;
import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.FINAL;
import static dev.quiver.plan.aggregate.AggregateMode.PARTIAL;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.ScalarFunction.ADD;
import static dev.quiver.plan.expr.ScalarFunction.GREATER_THAN;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Schema, partitioning and ordering propagation through the nodes. */
class PlanNodeTest {
  @Test
  void schemasConvertToArrowAndBack() {
    Schema arrow = PlanFixtures.ORDERS.toArrow();
    assertThat(arrow.getFields().get(0).isNullable()).isFalse();
    assertThat(arrow.getFields().get(2).getType()).isEqualTo(new ArrowType.Decimal(15, 2, 128));
    assertThat(RowSchema.fromArrow(arrow)).isEqualTo(PlanFixtures.ORDERS);
    assertThat(PlanFixtures.ORDERS)
        .hasToString("(o_id BIGINT NOT NULL, o_cust BIGINT, o_total DECIMAL(15,2), o_date DATE)");
  }

  @Test
  void projectRenumbersHashKeysAndSortKeysItPassesThrough() {
    PlanBuilder sorted = orders(3).repartition(hash(1), 4).sort(SortKey.asc(1), SortKey.asc(3));
    Expr next = call(ADD, sorted.col(0), lit(1L));
    PlanNode kept = sorted.project(List.of(next, sorted.col(1)), List.of("next", "cust")).build();
    assertThat(kept.partitioning()).isEqualTo(Partitioning.hash(keys(1), 4));
    assertThat(kept.ordering()).containsExactly(SortKey.asc(1)); // #3 is dropped: cut there
    assertThat(kept.schema().column(0)).isEqualTo(new Column("next", SqlType.BIGINT, false));

    PlanNode dropped = sorted.select(0).build();
    assertThat(dropped.partitioning()).isEqualTo(Partitioning.unknown(4));
    assertThat(dropped.ordering()).isEmpty();
  }

  @Test
  void partialAndFinalAggregateSchemasFollowTheStateLayout() {
    PlanBuilder scan = orders(2);
    List<AggregateCall> calls = List.of(scan.call(AVG, 2, "avg_total"));
    PlanBuilder partial = scan.aggregate(PARTIAL, keys(1), calls);
    assertThat(partial.schema().columns())
        .extracting(Column::name)
        .containsExactly("o_cust", "avg_total$sum", "avg_total$count");
    assertThat(partial.build().partitioning()).isEqualTo(Partitioning.unknown(2));

    PlanNode fin = partial.repartition(hash(0), 3).aggregate(FINAL, keys(1), calls).build();
    assertThat(fin.schema().columns())
        .containsExactly(
            Column.of("o_cust", SqlType.BIGINT), Column.of("avg_total", SqlType.decimal(38, 6)));
    assertThat(fin.partitioning()).isEqualTo(Partitioning.hash(keys(0), 3));
  }

  @Test
  void partialOverHashedInputKeepsThePartitioningOnTheKeyPosition() {
    PlanBuilder hashed = orders(2).repartition(hash(1), 4);
    PlanNode partial = hashed.aggregate(PARTIAL, keys(3, 1), hashed.call(SUM, 2, "s")).build();
    assertThat(partial.partitioning()).isEqualTo(Partitioning.hash(keys(1), 4));
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void partitionedJoinsKeepTheKeysOfAnUnpaddedSide(JoinType type) {
    PlanNode join =
        orders(2)
            .repartition(hash(1), 4)
            .hashJoin(
                type,
                customers(2).repartition(hash(0), 4),
                keys(0),
                keys(1),
                JoinDistribution.PARTITIONED)
            .build();
    Partitioning expected;
    switch (type) {
      case RIGHT:
        expected = Partitioning.hash(keys(4), 4); // customers' c_id after the 4 orders columns
        break;
      case RIGHT_SEMI:
      case RIGHT_ANTI:
        expected = Partitioning.hash(keys(0), 4);
        break;
      case FULL:
        expected = Partitioning.unknown(4);
        break;
      default:
        expected = Partitioning.hash(keys(1), 4);
    }
    assertThat(join.partitioning()).isEqualTo(expected);
    assertThat(join.schema())
        .isEqualTo(
            RowSchema.fromArrow(
                type.outputSchema(
                    PlanFixtures.ORDERS.toArrow(), PlanFixtures.CUSTOMERS.toArrow())));
  }

  @Test
  void joinOutputPutsProbeColumnsFirstAndPadsNullable() {
    PlanNode join =
        orders(2)
            .hashJoin(JoinType.RIGHT, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST)
            .build();
    assertThat(join.schema().column(0)).isEqualTo(Column.of("o_id", SqlType.BIGINT));
    assertThat(join.schema().column(4)).isEqualTo(Column.notNull("c_id", SqlType.BIGINT));
    assertThat(join.partitioning()).isEqualTo(Partitioning.unknown(2));
    assertThat(join.child(0)).isNotInstanceOf(Broadcast.class); // the planner's pass adds it
  }

  @Test
  void unionWidensNullabilityAndKeepsAgreeingPartitioning() {
    PlanBuilder ids = orders(2).select(0).repartition(hash(0), 3);
    PlanBuilder customerIds =
        customers(2).project(List.of(lit(7L)), List.of("seven")).repartition(hash(0), 3);
    PlanNode union = ids.union(customerIds).build();
    assertThat(union.schema().column(0)).isEqualTo(Column.notNull("o_id", SqlType.BIGINT));
    assertThat(union.partitioning()).isEqualTo(Partitioning.hash(keys(0), 3));

    PlanNode mixed = orders(2).select(1).union(customers(2).select(0)).build();
    assertThat(mixed.schema().column(0).nullable()).isTrue();
    assertThat(mixed.partitioning()).isEqualTo(Partitioning.unknown(2));
  }

  @Test
  void exchangesSetTheirPartitioningAndOrdering() {
    PlanBuilder sorted = orders(4).sort(SortKey.desc(2));
    assertThat(sorted.coalesce(4).build().ordering()).containsExactly(SortKey.desc(2));
    assertThat(sorted.coalesce(2).build().ordering()).isEmpty();
    assertThat(sorted.coalesce(1).build().partitioning()).isEqualTo(Partitioning.single());
    assertThat(sorted.merge().build().ordering()).containsExactly(SortKey.desc(2));
    assertThat(sorted.merge().build().partitioning()).isEqualTo(Partitioning.single());
    assertThat(sorted.repartition(PlanBuilder.roundRobin(), 3).build().partitioning())
        .isEqualTo(Partitioning.roundRobin(3));
    assertThat(sorted.limit(1, 2).build().ordering()).containsExactly(SortKey.desc(2));
  }

  @Test
  void anyPartitioningOfOnePartitionIsSingle() {
    assertThat(Partitioning.hash(keys(0), 1)).isEqualTo(Partitioning.single());
    assertThat(Partitioning.roundRobin(1)).isEqualTo(Partitioning.single());
    assertThat(Partitioning.single().groups(keys())).isTrue();
    assertThat(Partitioning.hash(keys(1), 3).groups(keys(0, 1))).isTrue();
    assertThat(Partitioning.hash(keys(1, 2), 3).groups(keys(1))).isFalse();
  }

  @Test
  void valuesAreTypedLiteralsInOnePartition() {
    RowSchema schema =
        RowSchema.of(Column.notNull("id", SqlType.BIGINT), Column.of("name", SqlType.VARCHAR));
    Values values = Values.of(schema, List.of(List.of(1, "a"), java.util.Arrays.asList(2L, null)));
    assertThat(values.rows().get(0).get(0).value()).isEqualTo(1L);
    assertThat(values.rows().get(1).get(1).isNull()).isTrue();
    assertThat(values.partitioning()).isEqualTo(Partitioning.single());
    assertThat(values).hasToString("Values[rows=2]");
  }

  @Test
  void withChildrenReturnsTheSameNodeForTheSameChildren() {
    PlanNode filter = orders(2).filter(lit(true)).build();
    assertThat(filter.withChildren(filter.children())).isSameAs(filter);
    PlanNode other = filter.withChildren(List.of(orders(3).build()));
    assertThat(other.partitions()).isEqualTo(3);
    assertThat(other).hasToString(filter.toString());
  }

  /**
   * An aggregate over a join of orders with broadcast customers, filtered by {@code o_total > t}.
   */
  private static PlanNode aggregateOfJoin(TableSource orders, int tasks, long threshold) {
    PlanBuilder scan = PlanBuilder.scan(orders, tasks);
    return scan.filter(call(GREATER_THAN, scan.col(0), lit(threshold)))
        .hashJoin(
            JoinType.INNER,
            PlanBuilder.from(new Broadcast(customers(2).build())),
            keys(0),
            keys(1),
            JoinDistribution.BROADCAST)
        .aggregate(PARTIAL, keys(6), List.of(scan.call(SUM, 2, "total")))
        .build();
  }

  @Test
  void nodesCompareStructurally() {
    PlanNode plan = aggregateOfJoin(PlanFixtures.orders(), 3, 10);
    PlanNode again = aggregateOfJoin(PlanFixtures.orders(), 3, 10);
    assertThat(again).isNotSameAs(plan).isEqualTo(plan).hasSameHashCodeAs(plan);
    assertThat(Map.of(plan, "x")).containsKey(again);
  }

  @Test
  void anyDifferenceMakesNodesUnequal() {
    PlanNode plan = aggregateOfJoin(PlanFixtures.orders(), 3, 10);
    TableSource orders = PlanFixtures.orders();
    List<PlanNode> others =
        List.of(
            aggregateOfJoin(orders, 2, 10), // task count
            aggregateOfJoin(orders, 3, 11), // a literal
            aggregateOfJoin(
                new TableSource("orders", orders.schema(), orders.units().subList(0, 12)), 3, 10),
            aggregateOfJoin(
                new TableSource(
                    "orders", orders.schema(), orders.units(), Map.of("format", "parquet")),
                3,
                10),
            aggregateOfJoin(
                orders.withFilter(
                    ScanFilter.of(new ScanFilter.Comparison("o_id", ScanFilter.Op.GT, lit(10L))),
                    orders.units()),
                3,
                10));
    for (PlanNode other : others) {
      assertThat(other).isNotEqualTo(plan);
    }
    // The same nodes over different plans, and different nodes over the same plan.
    PlanNode scan = orders(3).build();
    assertThat(new Coalesce(scan, 3)).isNotEqualTo(new Coalesce(orders(2).build(), 2));
    assertThat(new Coalesce(scan, 3)).isNotEqualTo(new Coalesce(scan, 1));
    assertThat(new Union(List.of(scan, scan))).isNotEqualTo(new Union(List.of(scan)));
  }
}
