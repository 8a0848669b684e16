package dev.quiver.sql;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.Cast;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.ScanFilter;
import dev.quiver.plan.node.ScanFilter.Comparison;
import dev.quiver.plan.node.ScanFilter.Op;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Predicate pushdown: the part of a filter directly above a table scan that the scan may skip data
 * with, as a {@link ScanFilter}. The filter itself stays in the plan.
 *
 * <pre>
 *   Filter[(d >= DATE '1994-01-01') AND (d < DATE '1995-01-01') AND (UPPER(s) = 'X' OR q > 5)]
 *     Scan[t [d, s, q]]
 *   ─► Scan[t [d, s, q], filter=(d >= DATE '1994-01-01' AND d < DATE '1995-01-01')]
 * </pre>
 *
 * A conjunct is pushed when it is {@code column op literal} (or {@code literal op column}) with
 * {@code op} one of {@code = <> < <= > >=} (BETWEEN arrives as two of them), and the comparison of
 * stored values with the literal is exact: both integers or decimals (compared by value), both
 * dates, strings, timestamps or booleans. A column may be under a cast that keeps every value and
 * its order (a wider integer or decimal): {@code CAST(i AS BIGINT) < 5} is {@code i < 5}. An OR of
 * equalities of one column with literals ({@code x IN (a, b, c)}) is pushed as the range it
 * implies, {@code x >= min AND x <= max}. Everything else is left to the filter operator: other
 * ORs, NOT, functions of columns, floating point (no agreed order for NaN), casts that change
 * values.
 */
final class ScanFilters {
  private ScanFilters() {}

  /** The pushable part of {@code condition}, a predicate over a scan of {@code scan}. */
  static Optional<ScanFilter> derive(Expr condition, RowSchema scan) {
    List<Comparison> pushed = new ArrayList<>();
    for (Expr conjunct : conjuncts(condition)) {
      pushed.addAll(comparisons(conjunct, scan));
    }
    return pushed.isEmpty() ? Optional.empty() : Optional.of(new ScanFilter(pushed));
  }

  private static List<Expr> conjuncts(Expr condition) {
    if (condition instanceof Call call && call.function() == ScalarFunction.AND) {
      List<Expr> all = new ArrayList<>();
      call.args().forEach(arg -> all.addAll(conjuncts(arg)));
      return all;
    }
    return List.of(condition);
  }

  private static List<Comparison> comparisons(Expr conjunct, RowSchema scan) {
    if (conjunct instanceof ColumnRef flag && flag.sqlType().kind() == SqlType.Kind.BOOLEAN) {
      return List.of(new Comparison(column(flag, scan).orElseThrow(), Op.EQ, Exprs.lit(true)));
    }
    if (!(conjunct instanceof Call call)) {
      return List.of();
    }
    if (call.function() == ScalarFunction.NOT
        && call.arg(0) instanceof ColumnRef flag
        && flag.sqlType().kind() == SqlType.Kind.BOOLEAN) {
      return List.of(new Comparison(column(flag, scan).orElseThrow(), Op.EQ, Exprs.lit(false)));
    }
    if (call.function() == ScalarFunction.BETWEEN) {
      List<Comparison> low = comparison(Op.GE, call.arg(0), call.arg(1), scan);
      List<Comparison> high = comparison(Op.LE, call.arg(0), call.arg(2), scan);
      List<Comparison> both = new ArrayList<>(low);
      both.addAll(high);
      return both;
    }
    if (call.function() == ScalarFunction.OR) {
      return inList(call, scan);
    }
    Optional<Op> op = op(call.function());
    return op.isPresent() ? comparison(op.get(), call.arg(0), call.arg(1), scan) : List.of();
  }

  private static Optional<Op> op(ScalarFunction function) {
    return switch (function) {
      case EQUAL -> Optional.of(Op.EQ);
      case NOT_EQUAL -> Optional.of(Op.NE);
      case LESS_THAN -> Optional.of(Op.LT);
      case LESS_THAN_OR_EQUAL -> Optional.of(Op.LE);
      case GREATER_THAN -> Optional.of(Op.GT);
      case GREATER_THAN_OR_EQUAL -> Optional.of(Op.GE);
      default -> Optional.empty();
    };
  }

  /** {@code left op right} as a comparison of a column with a literal, if it is one. */
  private static List<Comparison> comparison(Op op, Expr left, Expr right, RowSchema scan) {
    Optional<String> column = column(left, scan);
    if (column.isPresent() && exact(left, right)) {
      return List.of(new Comparison(column.get(), op, (Literal) right));
    }
    column = column(right, scan);
    if (column.isPresent() && exact(right, left)) {
      return List.of(new Comparison(column.get(), op.flipped(), (Literal) left));
    }
    return List.of();
  }

  /**
   * {@code x = a OR x = b OR ...} on one column: {@code x >= min AND x <= max}, which every row it
   * keeps satisfies (a weaker predicate than the OR, so still sound for skipping).
   */
  private static List<Comparison> inList(Call or, RowSchema scan) {
    List<Comparison> equalities = new ArrayList<>();
    for (Expr disjunct : or.args()) {
      List<Comparison> one =
          disjunct instanceof Call call && call.function() == ScalarFunction.EQUAL
              ? comparison(Op.EQ, call.arg(0), call.arg(1), scan)
              : List.of();
      if (one.isEmpty()
          || (!equalities.isEmpty() && !one.get(0).column().equals(equalities.get(0).column()))) {
        return List.of();
      }
      equalities.add(one.get(0));
    }
    Comparator<Literal> order = valueOrder(equalities);
    if (order == null) {
      return List.of();
    }
    List<Literal> values = equalities.stream().map(Comparison::value).sorted(order).toList();
    String column = equalities.get(0).column();
    return List.of(
        new Comparison(column, Op.GE, values.get(0)),
        new Comparison(column, Op.LE, values.get(values.size() - 1)));
  }

  /** The order of the literals' values, as the scan compares them; null if there is none. */
  private static Comparator<Literal> valueOrder(List<Comparison> equalities) {
    if (equalities.stream().allMatch(c -> c.value().value() instanceof Number)) {
      return Comparator.comparing(l -> decimal(l.value()));
    }
    if (equalities.stream().allMatch(c -> c.value().value() instanceof String)) {
      // Strings compare by their UTF-8 bytes, as Parquet statistics and Quiver's kernels do.
      return (a, b) -> Arrays.compareUnsigned(utf8(a), utf8(b));
    }
    if (equalities.stream().allMatch(c -> c.value().value() instanceof LocalDate)) {
      return Comparator.comparing(l -> (LocalDate) l.value());
    }
    if (equalities.stream().allMatch(c -> c.value().value() instanceof LocalDateTime)) {
      return Comparator.comparing(l -> (LocalDateTime) l.value());
    }
    return null;
  }

  private static BigDecimal decimal(Object number) {
    return number instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) number).longValue());
  }

  private static byte[] utf8(Literal literal) {
    return ((String) literal.value()).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The name of the scanned column {@code expr} is, possibly under casts that keep every value and
   * its order.
   */
  private static Optional<String> column(Expr expr, RowSchema scan) {
    if (expr instanceof ColumnRef ref) {
      return Optional.of(scan.column(ref.index()).name());
    }
    if (expr instanceof Cast cast && preservesValues(cast.input().sqlType(), cast.sqlType())) {
      return column(cast.input(), scan);
    }
    return Optional.empty();
  }

  /** Whether comparing stored values of {@code column} with {@code literal} is exact. */
  private static boolean exact(Expr column, Expr literal) {
    if (!(literal instanceof Literal value) || value.isNull()) {
      return false;
    }
    SqlType.Kind stored = stored(column).kind();
    SqlType.Kind given = value.sqlType().kind();
    if (exactNumber(stored) && exactNumber(given)) {
      return true;
    }
    return stored == given
        && (stored == SqlType.Kind.DATE
            || stored == SqlType.Kind.VARCHAR
            || stored == SqlType.Kind.TIMESTAMP
            || stored == SqlType.Kind.BOOLEAN);
  }

  /** The type of the stored column under a column expression. */
  private static SqlType stored(Expr column) {
    return column instanceof Cast cast ? stored(cast.input()) : column.sqlType();
  }

  private static boolean exactNumber(SqlType.Kind kind) {
    return integerDigits(kind) > 0 || kind == SqlType.Kind.DECIMAL;
  }

  /** The decimal digits an integer type needs; 0 for other types. */
  private static int integerDigits(SqlType.Kind kind) {
    return switch (kind) {
      case TINYINT -> 3;
      case SMALLINT -> 5;
      case INTEGER -> 10;
      case BIGINT -> 19;
      default -> 0;
    };
  }

  /** Whether {@code CAST(x AS to)} of every {@code from} value is the same number (or string). */
  static boolean preservesValues(SqlType from, SqlType to) {
    if (from.equals(to)) {
      return true;
    }
    int fromDigits = integerDigits(from.kind());
    int toDigits = integerDigits(to.kind());
    if (fromDigits > 0 && toDigits > 0) {
      return toDigits >= fromDigits;
    }
    if (fromDigits > 0 && to.kind() == SqlType.Kind.DECIMAL) {
      return to.precision() - to.scale() >= fromDigits;
    }
    if (from.kind() == SqlType.Kind.DECIMAL && to.kind() == SqlType.Kind.DECIMAL) {
      return to.scale() >= from.scale()
          && to.precision() - to.scale() >= from.precision() - from.scale();
    }
    return false;
  }
}
