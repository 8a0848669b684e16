package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upper bounds of the number of distinct values per column, from Parquet min/max statistics and
 * without reading data: an integer, date or decimal column whose values lie in {@code [min, max]}
 * has at most {@code (max - min) / ulp + 1} distinct values, and never more than the row count;
 * where that leaves more than half the rows, the sizes of the row groups' dictionaries may bound it
 * better ({@link #dictionaryBound}). That is the number a join-size estimate needs: {@code
 * c_nationkey} spans 0..24, so a join on it multiplies rows by thousands, while {@code o_custkey}
 * spans as many values as there are customers. Columns without usable statistics (strings, CSV
 * files) are left out.
 */
public final class DistinctCounts {
  private static final Logger LOG = LoggerFactory.getLogger(DistinctCounts.class);

  private DistinctCounts() {}

  /** Column index → distinct-value bound, for the columns of {@code schema} that have one. */
  public static Map<Integer, Long> estimate(
      FileFormat format, Iterable<DataFile> files, RowSchema schema, long rows) {
    Map<Integer, Long> counts = new HashMap<>();
    for (Map.Entry<Integer, BigDecimal[]> entry : ranges(format, files, schema).entrySet()) {
      int c = entry.getKey();
      BigDecimal[] range = entry.getValue();
      BigDecimal span =
          range[1].subtract(range[0]).movePointRight(range[0].scale()).add(BigDecimal.ONE);
      long bound = span.compareTo(BigDecimal.valueOf(rows)) >= 0 ? rows : span.longValue();
      if (bound >= rows / 2) {
        bound = Math.min(bound, dictionaryBound(files, schema.column(c).name()));
      }
      counts.put(c, Math.max(1, bound));
    }
    return counts;
  }

  /**
   * Column index → {@code [min, max]} over every row group, for the integer, date (as days since
   * 1970-01-01) and decimal columns of {@code schema} whose every row group has both; the planner
   * estimates the rows a range predicate keeps from them (values assumed spread evenly).
   */
  public static Map<Integer, BigDecimal[]> ranges(
      FileFormat format, Iterable<DataFile> files, RowSchema schema) {
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
    Map<Integer, BigDecimal[]> byIndex = new HashMap<>();
    for (int c = 0; c < schema.size(); c++) {
      String name = schema.column(c).name();
      BigDecimal[] range = ranges.get(name);
      if (range != null && complete.getOrDefault(name, false)) {
        byIndex.put(c, range);
      }
    }
    return byIndex;
  }

  /**
   * The sum, over every row group, of the number of values in the column's dictionary, when every
   * row group's chunk of it is fully dictionary-encoded; else {@link Long#MAX_VALUE}. A value in
   * several row groups is counted in each, so this too is an upper bound, and a tight one for a
   * column whose values cluster in row groups (a foreign key of rows written in key order, like
   * {@code l_orderkey}: its range spans four times the orders there are, as TPC-H keys are sparse,
   * so its range bound is the row count; its dictionaries count each order about once).
   *
   * <p>Only asked for columns whose range does not bound them below half the rows; reads one page
   * header per row group (a few dozen bytes each, at offsets the footer gives).
   */
  private static long dictionaryBound(Iterable<DataFile> files, String column) {
    long sum = 0;
    for (DataFile file : files) {
      Path path = Path.of(file.path());
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
        for (ParquetFooter.RowGroup group : ParquetFooter.read(path).rowGroups()) {
          Long offset = group.dictionaries().get(column);
          if (offset == null) {
            return Long.MAX_VALUE;
          }
          sum += ParquetFooter.dictionarySize(channel, offset);
        }
      } catch (IOException e) {
        // Statistics are an estimate: a file that cannot be read here fails the query later,
        // with the reader's error, not the planner's.
        LOG.debug("no dictionary bound for {} in {}: {}", column, path, e.toString());
        return Long.MAX_VALUE;
      }
    }
    return sum;
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
