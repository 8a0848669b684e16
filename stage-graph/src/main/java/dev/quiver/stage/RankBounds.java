package dev.quiver.stage;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.Window;
import dev.quiver.plan.window.WindowTopN;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A window top-N read off a filter over windowed ranking functions: a conjunct that bounds a
 * ROW_NUMBER, RANK or DENSE_RANK column from above by a constant, the column read through
 * projections and filters down to a window over event-time windows ({@link Window#windowEnd}) that
 * computes only ranking functions, as Flink SQL's window top-N and window deduplication write it.
 *
 * <pre>
 *   Filter[(rn#4 <= 3)]                         Filter[(rn#4 <= 3)]
 *     Project[..., rn#4 AS rn]           ─►       Project[..., rn#4 AS rn]
 *       Window[..., window end=#2]                  Window[..., window end=#2, keep row_number() <= 3]
 * </pre>
 *
 * {@code rn <= n}, {@code rn < n + 1}, {@code rn = n}, {@code n >= rn} and {@code rn BETWEEN k AND
 * n} all bound the rank by n: the filter drops every row ranked above n whatever else it says, and
 * the rows ranked at most n are a prefix of each partition whose ranks do not depend on the rows
 * after them. The first such conjunct wins; a window already bounded stays as it is.
 */
final class RankBounds {
  private RankBounds() {}

  /** {@code filter} with the window below it bounded, if the filter bounds a windowed rank. */
  static Optional<Filter> of(Filter filter) {
    for (Expr conjunct : conjuncts(filter.predicate())) {
      Optional<Bound> bound = bound(conjunct);
      if (bound.isEmpty()) {
        continue;
      }
      Optional<PlanNode> input = bounded(filter.input(), bound.get().column(), bound.get().n());
      if (input.isPresent()) {
        return Optional.of((Filter) filter.withChildren(List.of(input.get())));
      }
    }
    return Optional.empty();
  }

  /** Column {@code column} is at most {@code n}. */
  private record Bound(int column, long n) {}

  private static List<Expr> conjuncts(Expr predicate) {
    List<Expr> found = new ArrayList<>();
    if (predicate instanceof Call call && call.function() == ScalarFunction.AND) {
      call.args().forEach(arg -> found.addAll(conjuncts(arg)));
    } else {
      found.add(predicate);
    }
    return found;
  }

  /** The upper bound {@code conjunct} puts on a column by a constant, if it puts one. */
  private static Optional<Bound> bound(Expr conjunct) {
    if (!(conjunct instanceof Call call)) {
      return Optional.empty();
    }
    ScalarFunction op = call.function();
    if (op == ScalarFunction.BETWEEN) {
      return column(call.arg(0))
          .flatMap(c -> constant(call.arg(2)).map(n -> new Bound(c, n)))
          .filter(b -> b.n() >= 1);
    }
    if (!op.isComparison()) {
      return Optional.empty();
    }
    Optional<Integer> column = column(call.arg(0));
    Optional<Long> constant = constant(call.arg(1));
    if (column.isEmpty() || constant.isEmpty()) {
      column = column(call.arg(1));
      constant = constant(call.arg(0));
      op = op.swapped();
    }
    if (column.isEmpty() || constant.isEmpty()) {
      return Optional.empty();
    }
    long value = constant.get();
    long n =
        switch (op) {
          case LESS_THAN -> value == Long.MIN_VALUE ? 0 : value - 1;
          case LESS_THAN_OR_EQUAL, EQUAL -> value;
          default -> 0; // a lower bound: no top-N
        };
    return n >= 1 ? Optional.of(new Bound(column.get(), n)) : Optional.empty();
  }

  private static Optional<Integer> column(Expr expr) {
    return expr instanceof ColumnRef ref ? Optional.of(ref.index()) : Optional.empty();
  }

  /** The value of a non-NULL integer literal. */
  private static Optional<Long> constant(Expr expr) {
    return expr instanceof Literal literal && literal.value() instanceof Long value
        ? Optional.of(value)
        : Optional.empty();
  }

  /**
   * {@code node} rebuilt with the window whose ranking function column {@code column} reads bounded
   * by {@code n}, through projections and filters; empty when the column is no windowed rank.
   */
  private static Optional<PlanNode> bounded(PlanNode node, int column, long n) {
    if (node instanceof Project project) {
      return project.expressions().get(column) instanceof ColumnRef ref
          ? bounded(project.input(), ref.index(), n)
              .map(input -> project.withChildren(List.of(input)))
          : Optional.empty();
    }
    if (node instanceof Filter filter) {
      return bounded(filter.input(), column, n).map(input -> filter.withChildren(List.of(input)));
    }
    if (node instanceof Window window && window.canBeTopN() && window.topN().isEmpty()) {
      int call = column - window.input().schema().size();
      return call < 0
          ? Optional.empty()
          : Optional.of(window.withTopN(new WindowTopN(window.calls().get(call).function(), n)));
    }
    return Optional.empty();
  }
}
