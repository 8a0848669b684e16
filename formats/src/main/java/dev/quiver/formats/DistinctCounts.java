package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Upper bounds of the number of distinct values per column, from Parquet min/max statistics and
 * without reading data: an integer, date or decimal column whose values lie in {@code [min, max]}
 * has at most {@code (max - min) / ulp + 1} distinct values, and never more than the row count.
 * That is the number a join-size estimate needs: {@code c_nationkey} spans 0..24, so a join on it
 * multiplies rows by thousands, while {@code o_custkey} spans as many values as there are
 * customers. Columns without usable statistics (strings, CSV files) are left out.
 */
public final class DistinctCounts {
  private DistinctCounts() {}

  /** Column index → distinct-value bound, for the columns of {@code schema} that have one. */
  public static Map<Integer, Long> estimate(
      FileFormat format, Iterable<DataFile> files, RowSchema schema, long rows) {
    requireNonNull(schema, "schema is null");
    if (format != FileFormat.PARQUET) {
      return Map.of();
    }
    Map<String, BigDecimal[]> ranges = new HashMap<>();
    Map<String, Boolean> complete = new HashMap<>();
    for (Column column : schema.columns()) {
      if (countable(column)) {
        complete.put(column.name(), true);
      }
    }
    for (DataFile file : files) {
      for (ParquetFooter.RowGroup group : ParquetFooter.read(Path.of(file.path())).rowGroups()) {
        for (Map.Entry<String, Boolean> entry : complete.entrySet()) {
          if (!entry.getValue()) {
            continue;
          }
          ColumnStats stats = group.columns().get(entry.getKey());
          if (stats == null
              || !(stats.min() instanceof BigDecimal min)
              || !(stats.max() instanceof BigDecimal max)) {
            entry.setValue(false); // a row group without bounds: the column has none
            continue;
          }
          ranges.merge(
              entry.getKey(),
              new BigDecimal[] {min, max},
              (a, b) -> new BigDecimal[] {a[0].min(b[0]), a[1].max(b[1])});
        }
      }
    }
    Map<Integer, Long> counts = new HashMap<>();
    for (int c = 0; c < schema.size(); c++) {
      String name = schema.column(c).name();
      BigDecimal[] range = ranges.get(name);
      if (range == null || !complete.getOrDefault(name, false)) {
        continue;
      }
      BigDecimal span =
          range[1].subtract(range[0]).movePointRight(range[0].scale()).add(BigDecimal.ONE);
      long bound = span.compareTo(BigDecimal.valueOf(rows)) >= 0 ? rows : span.longValue();
      counts.put(c, Math.max(1, bound));
    }
    return counts;
  }

  private static boolean countable(Column column) {
    switch (column.type().kind()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case DATE:
      case DECIMAL:
        return true;
      default:
        return false;
    }
  }
}
