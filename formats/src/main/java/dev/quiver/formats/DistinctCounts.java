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
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
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
    return estimate(files, schema, rows, ranges(format, files, schema));
  }

  /** {@link #estimate} from the {@link #ranges} of the same files, read already. */
  public static Map<Integer, Long> estimate(
      Iterable<DataFile> files, RowSchema schema, long rows, Map<Integer, BigDecimal[]> ranges) {
    Map<Integer, Long> counts = new HashMap<>();
    Map<Integer, String> wide = new HashMap<>(); // columns whose range bounds them only loosely
    for (Map.Entry<Integer, BigDecimal[]> entry : ranges.entrySet()) {
      int c = entry.getKey();
      BigDecimal[] range = entry.getValue();
      BigDecimal span =
          range[1].subtract(range[0]).movePointRight(range[0].scale()).add(BigDecimal.ONE);
      long bound = span.compareTo(BigDecimal.valueOf(rows)) >= 0 ? rows : span.longValue();
      counts.put(c, Math.max(1, bound));
      if (bound >= rows / 2) {
        wide.put(c, schema.column(c).name());
      }
    }
    if (!wide.isEmpty()) {
      Map<String, Long> dictionaries = dictionaryBounds(files, Set.copyOf(wide.values()));
      wide.forEach(
          (c, name) -> counts.put(c, Math.max(1, Math.min(counts.get(c), dictionaries.get(name)))));
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
   * For each of {@code columns}: the sum, over every row group, of the number of values in the
   * column's dictionary, when every row group's chunk of it is fully dictionary-encoded; else
   * {@link Long#MAX_VALUE}. A value in several row groups is counted in each, so this too is an
   * upper bound, and a tight one for a column whose values cluster in row groups (a foreign key of
   * rows written in key order, like {@code l_orderkey}: its range spans four times the orders there
   * are, as TPC-H keys are sparse, so its range bound is the row count; its dictionaries count each
   * order about once).
   *
   * <p>Only asked for columns whose range does not bound them below half the rows; opens each file
   * once and reads one page header per row group and column (a few dozen bytes each, at offsets the
   * footer gives).
   */
  private static Map<String, Long> dictionaryBounds(Iterable<DataFile> files, Set<String> columns) {
    Map<String, Long> sums = new HashMap<>();
    columns.forEach(column -> sums.put(column, 0L));
    Set<String> counting = new HashSet<>(columns);
    for (DataFile file : files) {
      if (counting.isEmpty()) {
        break;
      }
      Path path = Path.of(file.path());
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
        for (ParquetFooter.RowGroup group : ParquetFooter.read(path).rowGroups()) {
          for (Iterator<String> it = counting.iterator(); it.hasNext(); ) {
            String column = it.next();
            Long offset = group.dictionaries().get(column);
            if (offset == null) {
              sums.put(column, Long.MAX_VALUE);
              it.remove();
            } else {
              sums.merge(column, (long) ParquetFooter.dictionarySize(channel, offset), Long::sum);
            }
          }
        }
      } catch (IOException e) {
        // Statistics are an estimate: a file that cannot be read here fails the query later,
        // with the reader's error, not the planner's.
        LOG.debug("no dictionary bounds for {} in {}: {}", counting, path, e.toString());
        counting.forEach(column -> sums.put(column, Long.MAX_VALUE));
        counting.clear();
      }
    }
    return sums;
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
