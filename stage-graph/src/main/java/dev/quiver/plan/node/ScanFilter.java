package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.Literal;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a scan may use to skip data: a conjunction of comparisons {@code column op literal} that
 * every row the plan needs satisfies. A connector that keeps statistics (Parquet min/max per row
 * group) leaves out files and row groups in which no row can satisfy it; one that does not ignores
 * it.
 *
 * <p>Skipping is only an optimisation: a scan with a filter may still return rows that fail it, so
 * the plan keeps its filter operator above the scan. The comparisons have SQL semantics (a NULL
 * column value satisfies none) and compare values exactly: the literal is of the column's type
 * family (integers and decimals compare by value, strings by UTF-8 bytes), which is what the SQL
 * planner guarantees when it derives a filter.
 *
 * @param conjuncts the comparisons, at least one
 */
public record ScanFilter(List<Comparison> conjuncts) implements Serializable {
  public ScanFilter {
    conjuncts = List.copyOf(requireNonNull(conjuncts, "conjuncts is null"));
    if (conjuncts.isEmpty()) {
      throw new IllegalArgumentException("a scan filter needs at least one comparison");
    }
  }

  public static ScanFilter of(Comparison... conjuncts) {
    return new ScanFilter(Arrays.asList(conjuncts));
  }

  /** The comparison operators. */
  public enum Op {
    EQ("="),
    NE("<>"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    /** {@code a op b} as {@code b flipped() a}: {@code 5 < x} is {@code x > 5}. */
    public Op flipped() {
      return switch (this) {
        case EQ, NE -> this;
        case LT -> GT;
        case LE -> GE;
        case GT -> LT;
        case GE -> LE;
      };
    }

    @Override
    public String toString() {
      return symbol;
    }
  }

  /**
   * {@code column op value}.
   *
   * @param column a column of the scanned table, by name
   * @param op the comparison
   * @param value a non-NULL literal
   */
  public record Comparison(String column, Op op, Literal value) implements Serializable {
    public Comparison {
      requireNonNull(column, "column is null");
      requireNonNull(op, "op is null");
      requireNonNull(value, "value is null");
      if (value.isNull()) {
        throw new IllegalArgumentException("a comparison with NULL never holds: " + column);
      }
    }

    /** {@code l_shipdate >= DATE '1994-01-01'}. */
    @Override
    public String toString() {
      return column + " " + op + " " + value;
    }
  }

  /** {@code l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'}. */
  @Override
  public String toString() {
    return conjuncts.stream().map(Comparison::toString).collect(Collectors.joining(" AND "));
  }
}
