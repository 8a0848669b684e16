package dev.quiver.stage;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.EventTimeJoin;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.type.SqlType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The interval of an interval join, read off a join's residual condition: the conjuncts that
 * compare an event time (or window end) of the probe side with one of the build side, each side
 * possibly shifted by a constant day-time interval, as Flink SQL's interval joins write them.
 *
 * <pre>
 *   probe.ts BETWEEN build.ts - INTERVAL '10' SECOND AND build.ts
 *     = probe.ts >= build.ts - 10 s AND probe.ts <= build.ts     → [build.ts - 10 s, build.ts + 0 s]
 *   build.ts + INTERVAL '1' HOUR > probe.ts AND probe.ts >= build.ts   → [+0 s, +1 h]
 * </pre>
 *
 * Strict comparisons give the same (inclusive) bound: the residual still decides every pair, the
 * bounds only decide when rows are complete. One pair of columns must be bounded on both sides.
 */
final class TimeBounds {
  private TimeBounds() {}

  /** A column shifted by a constant: {@code #column + micros}. */
  private record Term(int column, long micros) {}

  /** The interval join {@code join}'s condition describes, if it describes one. */
  static Optional<EventTimeJoin> of(HashJoin join) {
    if (join.residual() == null) {
      return Optional.empty();
    }
    int probeColumns = join.probe().schema().size();
    Map<List<Integer>, long[]> bounds = new LinkedHashMap<>(); // [build, probe] -> [lower, upper]
    for (Expr conjunct : comparisons(join.residual())) {
      Call compare = (Call) conjunct;
      Optional<Term> left = term(compare.arg(0));
      Optional<Term> right = term(compare.arg(1));
      if (left.isEmpty() || right.isEmpty()) {
        continue;
      }
      boolean probeLeft = left.get().column() < probeColumns;
      boolean probeRight = right.get().column() < probeColumns;
      if (probeLeft == probeRight) {
        continue; // both columns of one side
      }
      Term probe = probeLeft ? left.get() : right.get();
      Term build = probeLeft ? right.get() : left.get();
      int buildColumn = build.column() - probeColumns;
      if (!UnboundedInputs.isTime(join.probe(), probe.column())
          || !UnboundedInputs.isTime(join.build(), buildColumn)) {
        continue;
      }
      // probe.t + a  OP  build.t + b   ⇔   probe.t  OP  build.t + (b - a)
      long shift = Math.subtractExact(build.micros(), probe.micros());
      ScalarFunction op = probeLeft ? compare.function() : compare.function().swapped();
      long[] bound =
          bounds.computeIfAbsent(
              List.of(buildColumn, probe.column()),
              key -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
      if (op == ScalarFunction.GREATER_THAN || op == ScalarFunction.GREATER_THAN_OR_EQUAL) {
        bound[0] = Math.max(bound[0], shift);
      } else {
        bound[1] = Math.min(bound[1], shift);
      }
    }
    for (Map.Entry<List<Integer>, long[]> entry : bounds.entrySet()) {
      long[] bound = entry.getValue();
      if (bound[0] != Long.MIN_VALUE && bound[1] != Long.MAX_VALUE && bound[0] <= bound[1]) {
        return Optional.of(
            EventTimeJoin.interval(
                entry.getKey().get(0), entry.getKey().get(1), bound[0], bound[1]));
      }
    }
    return Optional.empty();
  }

  /** The conjuncts of {@code condition} that are ordering comparisons (BETWEEN split in two). */
  private static List<Expr> comparisons(Expr condition) {
    List<Expr> found = new ArrayList<>();
    if (condition instanceof Call call) {
      switch (call.function()) {
        case AND -> call.args().forEach(arg -> found.addAll(comparisons(arg)));
        case BETWEEN -> {
          found.add(
              new Call(ScalarFunction.GREATER_THAN_OR_EQUAL, List.of(call.arg(0), call.arg(1))));
          found.add(new Call(ScalarFunction.LESS_THAN_OR_EQUAL, List.of(call.arg(0), call.arg(2))));
        }
        case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> found.add(call);
        default -> {}
      }
    }
    return found;
  }

  /** {@code #c}, {@code #c + interval}, {@code interval + #c} or {@code #c - interval}. */
  private static Optional<Term> term(Expr expr) {
    if (expr instanceof ColumnRef ref) {
      return Optional.of(new Term(ref.index(), 0));
    }
    if (!(expr instanceof Call call)
        || (call.function() != ScalarFunction.ADD && call.function() != ScalarFunction.SUBTRACT)) {
      return Optional.empty();
    }
    boolean add = call.function() == ScalarFunction.ADD;
    if (call.arg(0) instanceof ColumnRef ref && interval(call.arg(1)).isPresent()) {
      long micros = interval(call.arg(1)).get();
      return Optional.of(new Term(ref.index(), add ? micros : Math.negateExact(micros)));
    }
    if (add && call.arg(1) instanceof ColumnRef ref && interval(call.arg(0)).isPresent()) {
      return Optional.of(new Term(ref.index(), interval(call.arg(0)).get()));
    }
    return Optional.empty();
  }

  /** The microseconds of a non-NULL day-time interval literal. */
  private static Optional<Long> interval(Expr expr) {
    if (expr instanceof Literal literal
        && !literal.isNull()
        && literal.sqlType().equals(SqlType.INTERVAL_DAY_TIME)) {
      Duration duration = (Duration) literal.value();
      return Optional.of(Math.multiplyExact(duration.toMillis(), 1000L));
    }
    return Optional.empty();
  }
}
