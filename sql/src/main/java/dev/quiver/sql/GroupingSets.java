package dev.quiver.sql;

import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.lit;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.Expand;
import dev.quiver.plan.node.PlanBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * GROUPING SETS, ROLLUP and CUBE (a Calcite {@link Aggregate} with several group sets): the input
 * once per set through an {@link Expand}, one aggregate keyed on (all group keys, grouping id), and
 * a projection that computes GROUPING / GROUPING_ID / GROUP_ID from the grouping id and drops it.
 *
 * <pre>
 *   Project[keys, GROUPING(..) from gid, calls]           the query's columns
 *     Aggregate[SINGLE, keys=[k.., gid], global sets]     as translated; distributed by the
 *       Expand[keys, sets, gid]                           planner's pass into:
 *         [Project: input + copies of keys that are also aggregate arguments]
 *
 *     Aggregate[FINAL, keys=[k.., gid]]
 *       Repartition[hash(k.., gid)]                       the id is in the shuffle key: each set
 *         Aggregate[PARTIAL, keys=[k.., gid], global sets]   aggregates in groups of its own
 *           Expand ...
 * </pre>
 *
 * An aggregate argument that is also a group key (SUM(a) ... ROLLUP(a)) must see the values the
 * Expand nulls, so it reads a copy of the column (a projection that shares the vector). The empty
 * set's grouping id is a global set of the PARTIAL (or the one-partition SINGLE) aggregate, so the
 * grand total has its row also over no input. DISTINCT calls have no partial state: they run in a
 * SINGLE aggregate after a hash shuffle on (keys, gid), or in one task when there is an empty set.
 */
final class GroupingSets {
  private GroupingSets() {}

  static PlanBuilder translate(PlanBuilder input, Aggregate aggregate, RelTranslator relations) {
    List<Integer> keys = aggregate.getGroupSet().asList();
    if (keys.size() > Expand.MAX_KEYS) {
      throw Errors.unsupported("GROUPING SETS over more than " + Expand.MAX_KEYS + " columns");
    }
    List<String> names = aggregate.getRowType().getFieldNames();
    List<org.apache.calcite.rel.core.AggregateCall> aggCalls = aggregate.getAggCallList();

    // Arguments that are group keys read a copy appended to the input.
    int width = input.schema().size();
    Map<Integer, Integer> copies = new HashMap<>();
    for (org.apache.calcite.rel.core.AggregateCall call : aggCalls) {
      if (!isGroupingFunction(call.getAggregation().getKind())) {
        for (int arg : call.getArgList()) {
          if (keys.contains(arg)) {
            copies.putIfAbsent(arg, width + copies.size());
          }
        }
      }
    }
    PlanBuilder widened = input;
    if (!copies.isEmpty()) {
      List<Integer> columns = new ArrayList<>();
      List<String> columnNames = new ArrayList<>();
      for (int i = 0; i < width; i++) {
        columns.add(i);
        columnNames.add(input.schema().column(i).name());
      }
      copies.entrySet().stream()
          .sorted(Map.Entry.comparingByValue())
          .forEach(
              e -> {
                columns.add(e.getKey());
                columnNames.add(input.schema().column(e.getKey()).name());
              });
      widened = RelTranslator.project(input, columns, columnNames);
    }

    List<List<Integer>> sets = new ArrayList<>();
    List<Long> globalSets = new ArrayList<>();
    for (ImmutableBitSet set : aggregate.getGroupSets()) {
      sets.add(set.asList());
      if (set.isEmpty()) {
        globalSets.add(Expand.groupingId(keys, List.of()));
      }
    }
    PlanBuilder expanded = widened.expand(keys, sets);
    int gid = ((Expand) expanded.build()).groupingIdColumn();

    List<AggregateCall> calls = new ArrayList<>();
    for (int i = 0; i < aggCalls.size(); i++) {
      org.apache.calcite.rel.core.AggregateCall call = aggCalls.get(i);
      if (isGroupingFunction(call.getAggregation().getKind())) {
        continue;
      }
      List<Integer> args = new ArrayList<>();
      for (int arg : call.getArgList()) {
        args.add(copies.getOrDefault(arg, arg));
      }
      calls.add(
          AggregateCalls.translate(expanded, call.withArgList(args), names.get(keys.size() + i)));
    }

    List<Integer> aggKeys = new ArrayList<>(keys);
    aggKeys.add(gid);
    // A single-node aggregate; the planner's pass distributes it like any other aggregate.
    PlanBuilder grouped = expanded.aggregate(AggregateMode.SINGLE, aggKeys, calls, globalSets);
    return output(grouped, keys, aggCalls, names);
  }

  /** The query's columns: the keys, then each call's value or grouping function; no id. */
  private static PlanBuilder output(
      PlanBuilder grouped,
      List<Integer> keys,
      List<org.apache.calcite.rel.core.AggregateCall> aggCalls,
      List<String> names) {
    List<Expr> exprs = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      exprs.add(grouped.col(i));
    }
    ColumnRef gid = grouped.col(keys.size());
    int next = keys.size() + 1;
    for (org.apache.calcite.rel.core.AggregateCall call : aggCalls) {
      SqlKind kind = call.getAggregation().getKind();
      if (kind == SqlKind.GROUP_ID) {
        // Calcite's group sets are distinct (duplicates become a UNION with constant ids).
        exprs.add(lit(0L));
      } else if (isGroupingFunction(kind)) {
        exprs.add(grouping(gid, keys, call.getArgList()));
      } else {
        exprs.add(grouped.col(next++));
      }
    }
    return grouped.project(exprs, names);
  }

  /**
   * GROUPING(a, b, ...) = its arguments' bits of the grouping id, the first argument most
   * significant: {@code sum over j of ((gid / 2^(k-1-pos(arg j))) % 2) * 2^(m-1-j)}.
   */
  static Expr grouping(ColumnRef gid, List<Integer> keys, List<Integer> args) {
    if (args.equals(keys)) {
      return gid;
    }
    Expr sum = null;
    for (int j = 0; j < args.size(); j++) {
      int shift = keys.size() - 1 - keys.indexOf(args.get(j));
      Expr bit = shift == 0 ? gid : call(ScalarFunction.DIVIDE, gid, lit(1L << shift));
      if (shift < keys.size() - 1) { // gid < 2^k: its top bit needs no modulo
        bit = call(ScalarFunction.MODULO, bit, lit(2L));
      }
      int weight = args.size() - 1 - j;
      Expr term = weight == 0 ? bit : call(ScalarFunction.MULTIPLY, bit, lit(1L << weight));
      sum = sum == null ? term : call(ScalarFunction.ADD, sum, term);
    }
    return sum;
  }

  // SqlKind.GROUPING_ID is deprecated, but Calcite's GROUPING_ID(...) still has that kind.
  @SuppressWarnings("deprecation")
  private static boolean isGroupingFunction(SqlKind kind) {
    return kind == SqlKind.GROUPING || kind == SqlKind.GROUPING_ID || kind == SqlKind.GROUP_ID;
  }
}
