package dev.quiver.plan.node;

import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.FINAL;
import static dev.quiver.plan.aggregate.AggregateMode.PARTIAL;
import static dev.quiver.plan.aggregate.AggregateMode.SINGLE;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The builder validates each node as it is added, with errors that say what to fix. */
class PlanBuilderTest {
  @Test
  void buildsTheFluentExample() {
    PlanBuilder scan = orders(3);
    AggregateCall total = scan.call(SUM, 2, "total");
    PlanNode plan =
        scan.filter(lit(true))
            .aggregate(PARTIAL, keys(1), total)
            .repartition(hash(0), 4)
            .aggregate(FINAL, keys(1), total)
            .build();
    assertThat(plan.partitions()).isEqualTo(4);
    assertThat(plan).hasToString("Aggregate[FINAL, keys=[#1], calls=[sum(#2) AS total]]");
  }

  @Test
  void columnOutOfRange() {
    assertInvalid(() -> orders(2).filter(col(7, SqlType.BOOLEAN)))
        .hasMessageContaining("#7")
        .hasMessageContaining("4 columns");
    assertInvalid(() -> orders(2).select(4)).hasMessageContaining("column #4");
    assertInvalid(() -> orders(2).sort(SortKey.asc(9))).hasMessageContaining("sort key");
    assertInvalid(() -> orders(2).repartition(hash(5), 2)).hasMessageContaining("hash key");
  }

  @Test
  void expressionTypesMustMatchTheInput() {
    assertMismatch(() -> orders(2).filter(col(2, SqlType.BOOLEAN)))
        .hasMessageContaining("DECIMAL(15,2)");
    assertMismatch(() -> orders(2).filter(col(1, SqlType.BIGINT)))
        .hasMessageContaining("not BOOLEAN");
    ColumnRef notNull = new ColumnRef(1, SqlType.BIGINT, false, "o_cust");
    assertMismatch(() -> orders(2).project(List.of(notNull), List.of("x")))
        .hasMessageContaining("reads nullable column o_cust BIGINT as NOT NULL");
  }

  @Test
  void joinKeysMustAgreeInCountAndType() {
    assertInvalid(
            () ->
                orders(2)
                    .hashJoin(
                        JoinType.INNER,
                        customers(2),
                        keys(0, 1),
                        keys(1),
                        JoinDistribution.BROADCAST))
        .hasMessageContaining("2 build keys but 1 probe keys");
    assertMismatch(
            () ->
                orders(2)
                    .hashJoin(
                        JoinType.INNER, customers(2), keys(2), keys(1), JoinDistribution.BROADCAST))
        .hasMessageContaining("c_nation INTEGER")
        .hasMessageContaining("cast");
  }

  @Test
  void partitionedJoinNeedsCoPartitionedInputsOnceDistributed() {
    HashJoin join =
        (HashJoin)
            orders(4)
                .hashJoin(
                    JoinType.INNER, customers(4), keys(0), keys(1), JoinDistribution.PARTITIONED)
                .build();
    assertThat(join.inputsDistributed()).isFalse();
    assertThat(join.partitioning()).isEqualTo(Partitioning.unknown(4));
    assertInvalid(join::checkInputsDistributed)
        .hasMessageContaining("co-partitioned")
        .hasMessageContaining("hash([#0], 4)");
    HashJoin uneven =
        (HashJoin)
            orders(4)
                .repartition(hash(1), 4)
                .hashJoin(
                    JoinType.INNER,
                    customers(2).repartition(hash(0), 3),
                    keys(0),
                    keys(1),
                    JoinDistribution.PARTITIONED)
                .build();
    assertInvalid(uneven::checkInputsDistributed)
        .hasMessageContaining("3 partitions, the probe input 4");
  }

  @Test
  void nullAwareJoinsCannotBePartitioned() {
    assertInvalid(
            () ->
                orders(4)
                    .repartition(hash(1), 4)
                    .hashJoin(
                        JoinKind.nullAware(JoinType.LEFT_ANTI),
                        customers(2).repartition(hash(0), 4),
                        keys(0),
                        keys(1),
                        null,
                        JoinDistribution.PARTITIONED))
        .hasMessageContaining("whole build side");
    assertInvalid(
            () ->
                orders(4)
                    .hashJoin(
                        JoinKind.nullAware(JoinType.LEFT_ANTI),
                        customers(2),
                        keys(0, 0),
                        keys(1, 1),
                        null,
                        JoinDistribution.BROADCAST))
        .hasMessageContaining("exactly one key");
  }

  @Test
  void joinsAddNoExchangesAndReplicatedBuildSidesAreCheckedOnceDistributed() {
    HashJoin collect =
        (HashJoin)
            orders(4)
                .hashJoin(
                    JoinType.INNER, customers(3), keys(0), keys(1), JoinDistribution.COLLECT_LEFT)
                .build();
    assertThat(collect.build()).hasToString(customers(3).build().toString());
    assertInvalid(collect::checkInputsDistributed).hasMessageContaining("gather it");
    NestedLoopJoin nested =
        (NestedLoopJoin) orders(4).nestedLoopJoin(JoinType.INNER, customers(3), null).build();
    assertThat(nested.build()).isNotInstanceOf(Broadcast.class);
    assertInvalid(nested::checkInputsDistributed).hasMessageContaining("broadcast it");
    HashJoin broadcast =
        new HashJoin(
            customers(3).build(),
            orders(2).build(),
            JoinKind.of(JoinType.INNER),
            keys(0),
            keys(1),
            null,
            JoinDistribution.BROADCAST);
    assertInvalid(broadcast::checkInputsDistributed).hasMessageContaining("must be a Broadcast");
  }

  @Test
  void finalAndSingleAggregatesNeedGroupsInOnePartitionOnceDistributed() {
    PlanBuilder scan = orders(3);
    AggregateCall total = scan.call(SUM, 2, "total");
    Aggregate single = (Aggregate) scan.aggregate(SINGLE, keys(1), total).build();
    assertThat(single.inputsDistributed()).isFalse();
    assertInvalid(single::checkInputsDistributed)
        .hasMessageContaining("hash-repartition the input on group key columns [1]");
    Aggregate global =
        (Aggregate) scan.aggregate(PARTIAL, keys(), total).aggregate(FINAL, keys(), total).build();
    assertInvalid(global::checkInputsDistributed).hasMessageContaining("coalesce its input to 1");
    assertThat(scan.repartition(hash(1), 4).aggregate(SINGLE, keys(1), total).partitions())
        .isEqualTo(4);
  }

  @Test
  void aggregateArgumentsAndStatesAreChecked() {
    PlanBuilder scan = orders(1);
    AggregateCall wrongType = AggregateCall.of(SUM, 1, SqlType.INTEGER.arrow(), "s");
    assertMismatch(() -> scan.aggregate(SINGLE, keys(), wrongType))
        .hasMessageContaining("expects Int(32, true)");
    AggregateCall distinct =
        new AggregateCall(AggregateFunction.COUNT, 1, SqlType.BIGINT.arrow(), true, "d");
    assertInvalid(() -> scan.aggregate(PARTIAL, keys(), distinct))
        .hasMessageContaining("no mergeable partial state");
    assertInvalid(() -> scan.aggregate(FINAL, keys(0, 1, 2, 3), scan.call(SUM, 2, "s")))
        .hasMessageContaining("state s$sum");
    assertMismatch(() -> scan.aggregate(FINAL, keys(0), scan.call(SUM, 2, "s")))
        .hasMessageContaining("expects Decimal(38, 2");
  }

  @Test
  void limitsCoalescesAndMergesAreChecked() {
    assertInvalid(() -> orders(2).limit(-1, 5)).hasMessageContaining("offset=-1");
    assertInvalid(() -> new Limit(orders(2).build(), 3, 5, LimitScope.LOCAL))
        .hasMessageContaining("LOCAL limit takes no offset");
    assertInvalid(() -> orders(2).coalesce(3)).hasMessageContaining("between 1 and 2");
    assertInvalid(() -> orders(2).merge()).hasMessageContaining("not sorted");
    assertInvalid(() -> orders(2).sort(SortKey.asc(1)).merge(SortKey.asc(0)))
        .hasMessageContaining("sorted by #1 ASC NULLS LAST");
  }

  @Test
  void unionInputsMustAgree() {
    assertInvalid(() -> orders(2).union(customers(2))).hasMessageContaining("3 columns");
    assertMismatch(() -> orders(2).select(3).union(customers(2).select(0)))
        .hasMessageContaining("cast one of them");
    Union counts = (Union) orders(2).select(0).union(customers(3).select(0)).build();
    assertThat(counts.partitions()).isEqualTo(3); // the planner's pass spreads input 0 to 3
    assertInvalid(counts::checkInputsDistributed)
        .hasMessageContaining("3 partitions, input 0 has 2");
  }

  @Test
  void valuesRowsMustFitTheSchema() {
    RowSchema schema = RowSchema.of(Column.notNull("id", SqlType.BIGINT));
    assertInvalid(() -> PlanBuilder.values(schema, List.of(List.of(1L, 2L))))
        .hasMessageContaining("row 0 has 2 values");
    assertMismatch(
            () -> PlanBuilder.values(schema, List.of(java.util.Arrays.asList((Object) null))))
        .hasMessageContaining("NULL");
    assertInvalid(() -> PlanBuilder.scan(PlanFixtures.orders(), 0))
        .hasMessageContaining("at least one task");
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertInvalid(
      ThrowingCallable call) {
    return assertCode(call, ErrorCode.INVALID_ARGUMENT);
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertMismatch(
      ThrowingCallable call) {
    return assertCode(call, ErrorCode.SCHEMA_MISMATCH);
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertCode(
      ThrowingCallable call, ErrorCode code) {
    return assertThatThrownBy(call)
        .isInstanceOf(QuiverException.class)
        .satisfies(e -> assertThat(((QuiverException) e).code()).isEqualTo(code));
  }
}
