package dev.quiver.sql;

import com.google.common.collect.Range;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.Sarg;

/**
 * The share of a table's rows a filter keeps, from the catalog's distinct counts and value ranges:
 * the product over its conjuncts, where the comparisons of one column ({@code x >= a AND x < b})
 * make one interval, and a conjunct the statistics say nothing about gets Calcite's guess.
 */
final class ScanSelectivity {
  private ScanSelectivity() {}

  static double of(CatalogTable table, List<RexNode> conjuncts) {
    double selectivity = 1.0;
    // column -> [low, high] of its comparisons with literals
    Map<Integer, double[]> intervals = new TreeMap<>();
    for (RexNode conjunct : conjuncts) {
      double[] bound = comparison(table, conjunct);
      if (bound != null) {
        int column = (int) bound[0];
        double[] interval =
            intervals.computeIfAbsent(
                column,
                c -> new double[] {table.ranges().get(c).min(), table.ranges().get(c).max()});
        interval[0] = Math.max(interval[0], bound[1]);
        interval[1] = Math.min(interval[1], bound[2]);
        continue;
      }
      Double known = of(table, conjunct);
      selectivity *= known != null ? known : RelMdUtil.guessSelectivity(conjunct);
    }
    for (Map.Entry<Integer, double[]> entry : intervals.entrySet()) {
      double[] interval = entry.getValue();
      selectivity *= share(table, table.ranges().get(entry.getKey()), interval[0], interval[1]);
    }
    return selectivity;
  }

  /** A conjunct {@code column op literal}, the column written first. */
  private record ColumnOp(int column, SqlKind kind, RexLiteral literal) {
    /** {@code conjunct} as a column compared with a literal (either side), or null. */
    static ColumnOp of(RexNode conjunct) {
      if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2) {
        return null;
      }
      RexNode a = call.getOperands().get(0);
      RexNode b = call.getOperands().get(1);
      if (a instanceof RexInputRef ref && b instanceof RexLiteral literal) {
        return new ColumnOp(ref.getIndex(), call.getKind(), literal);
      }
      if (b instanceof RexInputRef ref && a instanceof RexLiteral literal) {
        return new ColumnOp(ref.getIndex(), call.getKind().reverse(), literal);
      }
      return null;
    }
  }

  /**
   * {@code {column, low, high}} for a comparison of a column that has a range with a number or date
   * literal ({@code <}, {@code <=}, {@code >}, {@code >=}); else null.
   */
  private static double[] comparison(CatalogTable table, RexNode conjunct) {
    ColumnOp op = ColumnOp.of(conjunct);
    if (op == null) {
      return null;
    }
    boolean below = op.kind() == SqlKind.LESS_THAN || op.kind() == SqlKind.LESS_THAN_OR_EQUAL;
    boolean above = op.kind() == SqlKind.GREATER_THAN || op.kind() == SqlKind.GREATER_THAN_OR_EQUAL;
    CatalogTable.Range range = table.ranges().get(op.column());
    if (!(below || above) || range == null) {
      return null;
    }
    Double value = number(op.literal());
    if (value == null) {
      return null;
    }
    return below
        ? new double[] {op.column(), range.min(), value}
        : new double[] {op.column(), value, range.max()};
  }

  /** The share one conjunct keeps, when the statistics say: a SEARCH, or an equality. */
  private static Double of(CatalogTable table, RexNode conjunct) {
    ColumnOp op = ColumnOp.of(conjunct);
    if (op == null) {
      return null;
    }
    if (op.kind() == SqlKind.SEARCH) {
      Sarg<?> sarg = op.literal().getValueAs(Sarg.class);
      return sarg == null ? null : search(table, op.column(), sarg);
    }
    return op.kind() == SqlKind.EQUALS ? point(table, op.column()) : null;
  }

  /** One value of the column: {@code 1 / ndv}, or null without a count. */
  private static Double point(CatalogTable table, int column) {
    Long ndv = table.distinctCounts().get(column);
    return ndv == null ? null : 1.0 / Math.max(1, ndv);
  }

  /** The points and ranges of a SEARCH: the sum of their shares, at most 1. */
  private static Double search(CatalogTable table, int column, Sarg<?> sarg) {
    if (sarg.isAll() || sarg.isNone()) {
      return null;
    }
    CatalogTable.Range range = table.ranges().get(column);
    double total = 0;
    for (Range<?> r : sarg.rangeSet.asRanges()) {
      boolean isPoint =
          r.hasLowerBound() && r.hasUpperBound() && r.lowerEndpoint().equals(r.upperEndpoint());
      if (isPoint) {
        Double p = point(table, column);
        if (p == null) {
          return null;
        }
        total += p;
        continue;
      }
      if (range == null) {
        return null;
      }
      Double low = r.hasLowerBound() ? number(r.lowerEndpoint()) : Double.valueOf(range.min());
      Double high = r.hasUpperBound() ? number(r.upperEndpoint()) : Double.valueOf(range.max());
      if (low == null || high == null) {
        return null;
      }
      total += share(table, range, low, high);
    }
    return Math.min(1.0, total);
  }

  /**
   * The share of {@code range} that {@code [low, high]} covers, never below one row's (statistics
   * may be older than the data, and a row count of zero would make any plan look free).
   */
  private static double share(
      CatalogTable table, CatalogTable.Range range, double low, double high) {
    double least = 1.0 / Math.max(1, table.rowCount());
    double lo = Math.max(low, range.min());
    double hi = Math.min(high, range.max());
    double width = range.max() - range.min();
    if (width <= 0) {
      return hi < lo ? least : 1.0;
    }
    return Math.max(least, Math.min(1.0, (hi - lo) / width));
  }

  /** A literal's value as a number: numbers as they are, dates as days since 1970-01-01. */
  private static Double number(RexLiteral literal) {
    return switch (literal.getType().getSqlTypeName()) {
      case DATE -> number(literal.getValueAs(DateString.class));
      case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, DOUBLE, FLOAT, REAL ->
          number(literal.getValueAs(BigDecimal.class));
      default -> null;
    };
  }

  /** A SEARCH endpoint's value as a number (dates as days since 1970-01-01). */
  private static Double number(Object value) {
    if (value instanceof BigDecimal d) {
      return d.doubleValue();
    }
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    if (value instanceof DateString date) {
      return (double) date.getDaysSinceEpoch();
    }
    return null;
  }
}
