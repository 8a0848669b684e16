package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A conjunction of {@link ColumnPredicate}s that a scan may use to skip data: whole files and
 * Parquet row groups whose min/max statistics prove that no row can satisfy every conjunct.
 *
 * <p>Skipping is only an optimisation. A scan may still return rows that fail the predicate (it
 * never drops a row that satisfies it), so the plan keeps its filter operator above the scan.
 */
public record ScanPredicate(List<ColumnPredicate> conjuncts) implements Serializable {
  public ScanPredicate {
    conjuncts = List.copyOf(requireNonNull(conjuncts, "conjuncts is null"));
  }

  public static ScanPredicate of(ColumnPredicate... conjuncts) {
    return new ScanPredicate(Arrays.asList(conjuncts));
  }

  /**
   * Whether a row group with these statistics may hold a row satisfying every conjunct: false only
   * when the statistics of some conjunct's column rule it out.
   */
  public boolean mightMatch(ParquetFooter.RowGroup rowGroup) {
    requireNonNull(rowGroup, "rowGroup is null");
    for (ColumnPredicate conjunct : conjuncts) {
      ColumnStats stats = rowGroup.columns().get(conjunct.column());
      if (stats != null && !mightMatch(conjunct, stats, rowGroup.rows())) {
        return false;
      }
    }
    return true;
  }

  private static boolean mightMatch(ColumnPredicate conjunct, ColumnStats stats, long rows) {
    if (rows > 0 && stats.nullCount() == rows) {
      return false; // only NULLs: no comparison is true
    }
    Object literal = conjunct.comparable();
    Integer minVsLiteral = compare(stats.min(), literal);
    Integer maxVsLiteral = compare(stats.max(), literal);
    return switch (conjunct.op()) {
      case EQ ->
          (minVsLiteral == null || minVsLiteral <= 0)
              && (maxVsLiteral == null || maxVsLiteral >= 0);
      case NE ->
          !(minVsLiteral != null && minVsLiteral == 0 && maxVsLiteral != null && maxVsLiteral == 0);
      case LT -> minVsLiteral == null || minVsLiteral < 0;
      case LE -> minVsLiteral == null || minVsLiteral <= 0;
      case GT -> maxVsLiteral == null || maxVsLiteral > 0;
      case GE -> maxVsLiteral == null || maxVsLiteral >= 0;
    };
  }

  /** The order of {@code stat} and {@code literal}, or null if unknown or not comparable. */
  static Integer compare(Object stat, Object literal) {
    if (stat == null || literal == null) {
      return null;
    }
    if (stat instanceof BigDecimal a && literal instanceof BigDecimal b) {
      return Integer.signum(a.compareTo(b));
    }
    if (stat instanceof byte[] a && literal instanceof byte[] b) {
      return Integer.signum(Arrays.compareUnsigned(a, b));
    }
    if (stat instanceof Boolean a && literal instanceof Boolean b) {
      return Integer.signum(Boolean.compare(a, b));
    }
    return null;
  }

  @Override
  public String toString() {
    return conjuncts.stream().map(Object::toString).collect(Collectors.joining(" AND "));
  }
}
