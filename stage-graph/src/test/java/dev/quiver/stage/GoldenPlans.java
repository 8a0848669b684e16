package dev.quiver.stage;

import static dev.quiver.plan.aggregate.AggregateFunction.MAX;
import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateMode.FINAL;
import static dev.quiver.plan.aggregate.AggregateMode.PARTIAL;
import static dev.quiver.plan.aggregate.AggregateMode.SINGLE;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.ScalarFunction.EQUAL;
import static dev.quiver.plan.expr.ScalarFunction.GREATER_THAN;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.customers;
import static dev.quiver.plan.node.PlanFixtures.orders;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFrame.Bound;
import dev.quiver.plan.window.WindowFunction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The plans of the golden EXPLAIN files, by file name (without extension). */
final class GoldenPlans {
  private GoldenPlans() {}

  static Map<String, Supplier<PlanNode>> all() {
    Map<String, Supplier<PlanNode>> plans = new LinkedHashMap<>();
    plans.put("aggregate_partial_final", GoldenPlans::aggregatePartialFinal);
    plans.put("join_partitioned", GoldenPlans::joinPartitioned);
    plans.put("join_broadcast", GoldenPlans::joinBroadcast);
    plans.put("join_null_aware_anti_broadcast", GoldenPlans::nullAwareAntiBroadcast);
    plans.put("join_collect_left_global_aggregate", GoldenPlans::collectLeftGlobalAggregate);
    plans.put("order_by_merge", GoldenPlans::orderByMerge);
    plans.put("union", GoldenPlans::union);
    plans.put("nested_join_of_aggregates", GoldenPlans::nestedJoinOfAggregates);
    plans.put("scan_balanced_splits", GoldenPlans::scanBalancedSplits);
    plans.put("coalesce_forward_rescale", GoldenPlans::coalesceForwardRescale);
    plans.put("rewrite_global_limit", () -> orders(3).limit(5, 10).build());
    plans.put("rewrite_global_limit_sorted", GoldenPlans::globalLimitSorted);
    plans.put("rewrite_global_topk", GoldenPlans::globalTopK);
    plans.put("rewrite_broadcast_right_join", GoldenPlans::broadcastRightJoin);
    plans.put("rewrite_collect_left_full_join", GoldenPlans::collectLeftFullJoin);
    plans.put("rewrite_nested_loop_right_join", GoldenPlans::nestedLoopRightJoin);
    plans.put("rewrite_limit_under_union", GoldenPlans::limitUnderUnion);
    plans.put("window_partitioned", GoldenPlans::windowPartitioned);
    plans.put("window_single_partition", GoldenPlans::windowSinglePartition);
    plans.put("grouping_sets_rollup", GoldenPlans::groupingSetsRollup);
    plans.put("grouping_sets_hashed_input", GoldenPlans::groupingSetsHashedInput);
    plans.put("shared_subplan", GoldenPlans::sharedSubplan);
    return plans;
  }

  /** Totals per customer of big orders: PARTIAL per scan task, FINAL after a hash shuffle. */
  static PlanNode aggregatePartialFinal() {
    PlanBuilder scan = orders(3);
    List<AggregateCall> calls =
        List.of(scan.call(SUM, 2, "total"), AggregateCall.countStar("orders"));
    return scan.filter(call(GREATER_THAN, scan.col(2), decimal("100.00")))
        .aggregate(PARTIAL, keys(1), calls)
        .repartition(hash(0), 4)
        .aggregate(FINAL, keys(1), calls)
        .build();
  }

  /**
   * Window functions per customer: shuffle on the partition key, sort each task by (customer,
   * date), then the window streams partitions; the window stays in the stage of its sort.
   */
  static PlanNode windowPartitioned() {
    WindowFrame sliding = WindowFrame.rows(Bound.preceding(2), Bound.currentRow());
    return orders(3)
        .repartition(hash(1), 4)
        .sort(SortKey.asc(1), SortKey.asc(3))
        .window(
            keys(1),
            List.of(SortKey.asc(3)),
            WindowCall.ranking(WindowFunction.RANK, "r"),
            WindowCall.of(WindowFunction.SUM, keys(2), sliding, "moving"),
            WindowCall.offset(WindowFunction.LAG, 2, 1, -1, "previous"))
        .build();
  }

  /** Without PARTITION BY the window needs one partition: gather, sort, window. */
  static PlanNode windowSinglePartition() {
    WindowFrame range =
        WindowFrame.range(Bound.preceding(java.math.BigDecimal.valueOf(7)), Bound.currentRow());
    return orders(3)
        .coalesce(1)
        .sort(SortKey.desc(3))
        .window(
            keys(),
            List.of(SortKey.desc(3)),
            WindowCall.ranking(WindowFunction.ROW_NUMBER, "n"),
            WindowCall.of(WindowFunction.COUNT_STAR, keys(), range, "last_week"))
        .build();
  }

  /**
   * ROLLUP(o_cust, o_date) of the order totals: each row once per set with a grouping id, PARTIAL
   * per scan task (seeding the grand total, id 3, so it exists over no rows), shuffled on (keys,
   * grouping id) so that each set aggregates separately, FINAL.
   */
  static PlanNode groupingSetsRollup() {
    PlanBuilder expand = orders(3).expand(keys(1, 3), List.of(keys(1, 3), keys(1), keys()));
    List<AggregateCall> calls =
        List.of(expand.call(SUM, 2, "total"), AggregateCall.countStar("orders"));
    return expand
        .aggregate(PARTIAL, keys(1, 3, 4), calls, List.of(3L))
        .repartition(hash(0, 1, 2), 4)
        .aggregate(FINAL, keys(1, 3, 4), calls)
        .build();
  }

  /**
   * GROUPING SETS ((o_cust, o_date), (o_cust)) over orders hashed on o_cust: o_cust keeps its value
   * in every copy, so the Expand stays hash([#1], 4) and one SINGLE aggregate needs no shuffle.
   */
  static PlanNode groupingSetsHashedInput() {
    PlanBuilder expand =
        orders(3).repartition(hash(1), 4).expand(keys(1, 3), List.of(keys(1, 3), keys(1)));
    return expand.aggregate(SINGLE, keys(1, 3, 4), expand.call(SUM, 2, "total")).build();
  }

  /** Orders with their customer: both sides shuffled on the key into 4 partitions. */
  static PlanNode joinPartitioned() {
    PlanBuilder build = customers(2).repartition(hash(0), 4);
    return orders(3)
        .repartition(hash(1), 4)
        .hashJoin(JoinType.INNER, build, keys(0), keys(1), JoinDistribution.PARTITIONED)
        .select(0, 5, 2)
        .build();
  }

  /** Orders of customers of nation 7, the customers broadcast to every orders task. */
  static PlanNode joinBroadcast() {
    PlanBuilder probe = orders(3);
    ColumnRef nation = new ColumnRef(6, SqlType.INTEGER, true, "c_nation");
    return probe
        .hashJoin(
            JoinKind.of(JoinType.INNER),
            customers(2),
            keys(0),
            keys(1),
            call(EQUAL, nation, lit(7)),
            JoinDistribution.BROADCAST)
        .build();
  }

  /** {@code o_cust NOT IN (SELECT c_id ...)}: needs the whole build side, so stays broadcast. */
  static PlanNode nullAwareAntiBroadcast() {
    return orders(3)
        .hashJoin(
            JoinKind.nullAware(JoinType.LEFT_ANTI),
            customers(2),
            keys(0),
            keys(1),
            null,
            JoinDistribution.BROADCAST)
        .build();
  }

  /** Orders of the largest total: a global aggregate (one task) joined to every orders task. */
  static PlanNode collectLeftGlobalAggregate() {
    PlanBuilder scan = orders(2);
    AggregateCall max = scan.call(MAX, 2, "max_total");
    PlanBuilder largest =
        scan.aggregate(PARTIAL, keys(), max).coalesce(1).aggregate(FINAL, keys(), max);
    ColumnRef total = orders(3).col(2);
    ColumnRef maxTotal = new ColumnRef(4, total.sqlType(), true, "max_total");
    return orders(3).nestedLoopJoin(JoinType.INNER, largest, call(EQUAL, total, maxTotal)).build();
  }

  /** ORDER BY o_date: a sort per task, then one merge. */
  static PlanNode orderByMerge() {
    return orders(3).sort(SortKey.asc(3)).merge().build();
  }

  /** Order ids and customer ids in one column, gathered into one task. */
  static PlanNode union() {
    return orders(2).select(0).union(customers(2).select(0)).coalesce(1).build();
  }

  /**
   * Two aggregates of the same key, joined: both FINAL outputs are hash([#0], 4), so the join needs
   * no further shuffle; then a global ORDER BY.
   */
  static PlanNode nestedJoinOfAggregates() {
    PlanBuilder orders = orders(3);
    AggregateCall total = orders.call(SUM, 2, "total");
    PlanBuilder totals =
        orders
            .aggregate(PARTIAL, keys(1), total)
            .repartition(hash(0), 4)
            .aggregate(FINAL, keys(1), total);
    PlanBuilder customers = customers(2);
    AggregateCall count = AggregateCall.countStar("names");
    PlanBuilder names =
        customers
            .filter(call(EQUAL, customers.col(2), lit(7)))
            .aggregate(PARTIAL, keys(0), count)
            .repartition(hash(0), 4)
            .aggregate(FINAL, keys(0), count);
    return totals
        .hashJoin(JoinType.INNER, names, keys(0), keys(0), JoinDistribution.PARTITIONED)
        .sort(SortKey.desc(1))
        .merge()
        .build();
  }

  /** Totals per customer (a SINGLE aggregate: the planner splits it and shuffles in between). */
  static PlanBuilder totalsPerCustomer() {
    PlanBuilder orders = orders(3);
    return orders.aggregate(SINGLE, keys(1), orders.call(SUM, 2, "total"));
  }

  /**
   * A CTE used three times: the totals per customer, the largest of them, and those above 100
   * joined back to the totals. The totals are one stage that three stage inputs read.
   */
  static PlanNode sharedSubplan() {
    PlanBuilder totals = totalsPerCustomer();
    AggregateCall max = totals.call(MAX, 1, "largest");
    PlanBuilder largest = totals.aggregate(SINGLE, keys(), max);
    PlanBuilder large = totals.filter(call(GREATER_THAN, totals.col(1), decimal("100.00")));
    return totals
        .hashJoin(JoinType.INNER, large, keys(0), keys(0), JoinDistribution.BROADCAST)
        .nestedLoopJoin(JoinType.INNER, largest, null)
        .build();
  }

  /** 13 equal files over 3 tasks (5, 4, 4) and 6 row groups of unequal sizes by bytes. */
  static PlanNode scanBalancedSplits() {
    return orders(3).select(0).union(customers(3).select(0)).build();
  }

  /** A coalesce to the same count is a FORWARD edge; to fewer, RESCALE. */
  static PlanNode coalesceForwardRescale() {
    return orders(4).coalesce(4).select(0, 2).coalesce(2).build();
  }

  /** ORDER BY o_date LIMIT 10 written as sort + global limit: the limit needs the merged order. */
  static PlanNode globalLimitSorted() {
    return orders(3).sort(SortKey.asc(3)).limit(0, 10).build();
  }

  /** ORDER BY o_total DESC LIMIT 10 OFFSET 5 as one global top-k. */
  static PlanNode globalTopK() {
    return orders(3).topK(List.of(SortKey.desc(2)), 10, 5).build();
  }

  /** Every customer with their orders, customers broadcast: wrong until partitioned. */
  static PlanNode broadcastRightJoin() {
    return orders(3)
        .hashJoin(JoinType.RIGHT, customers(2), keys(0), keys(1), JoinDistribution.BROADCAST)
        .build();
  }

  /** FULL join of orders with a small VALUES table collected into one partition. */
  static PlanNode collectLeftFullJoin() {
    RowSchema schema =
        RowSchema.of(Column.notNull("id", SqlType.BIGINT), Column.of("label", SqlType.VARCHAR));
    PlanBuilder labels =
        PlanBuilder.values(schema, List.of(List.of(1L, "one"), List.of(2L, "two")));
    return orders(3)
        .hashJoin(JoinType.FULL, labels, keys(0), keys(1), JoinDistribution.COLLECT_LEFT)
        .build();
  }

  /** Every customer, with the orders over 10.00 (a keyless RIGHT join): wrong until one task. */
  static PlanNode nestedLoopRightJoin() {
    ColumnRef total = orders(3).col(2);
    return orders(3)
        .nestedLoopJoin(JoinType.RIGHT, customers(2), call(GREATER_THAN, total, decimal("10.00")))
        .build();
  }

  /** (first 5 orders) UNION ALL (all orders): the limit's new single partition is spread again. */
  static PlanNode limitUnderUnion() {
    return orders(3).select(0).limit(0, 5).union(orders(3).select(0)).build();
  }
}
