package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.keyrange.KeyRange;
import dev.quiver.operators.keyrange.KeyRangeBuilder;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * What a scan does with the {@link KeyRange}s its task's joins published for it ({@code
 * TaskKeyRanges}), for one file: rows whose key lies outside a range cannot match, so
 *
 * <ul>
 *   <li>{@link Action#SKIP}: the file is not read, when a range is empty (the build side had no
 *       key) or no Parquet row group's statistics overlap the ranges;
 *   <li>{@link Action#FILTER}: the file is read with the ranges added to the scan's predicate, so
 *       that Arrow's reader skips the row groups they rule out and drops rows outside them, when
 *       some row group is ruled out or the ranges are estimated to keep at most {@value
 *       #MAX_KEPT_SHARE} of the rows (their share of the file's value range per column);
 *   <li>{@link Action#READ}: as planned, otherwise (a filter that drops few rows costs more than it
 *       saves) and for files without statistics (CSV, Arrow IPC).
 * </ul>
 *
 * The decision only narrows what is read; the plan's filters and joins still check every row.
 */
public final class ScanKeyRanges {
  /**
   * The largest estimated share of a file's rows kept by the ranges for which rows are filtered.
   */
  static final double MAX_KEPT_SHARE = 0.5;

  /** What to do with a file. */
  public enum Action {
    READ,
    FILTER,
    SKIP
  }

  /** The action and the scan to read the file with. */
  public record Decision(Action action, ScanSpec spec) {}

  private ScanKeyRanges() {}

  /**
   * The decision for {@code split} read with {@code spec}, given {@code ranges} by column index of
   * the scan's output.
   */
  public static Decision decide(FileSplit split, ScanSpec spec, Map<Integer, KeyRange> ranges) {
    requireNonNull(split, "split is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(ranges, "ranges is null");
    Decision read = new Decision(Action.READ, spec);
    if (ranges.isEmpty()) {
      return read;
    }
    List<Field> fields = spec.outputSchema().getFields();
    List<ColumnPredicate> added = new ArrayList<>();
    for (Map.Entry<Integer, KeyRange> entry : ranges.entrySet()) {
      int column = entry.getKey();
      KeyRange range = entry.getValue();
      if (column < 0 || column >= fields.size()) {
        throw new IllegalArgumentException(
            "a key range for column " + column + " of a scan of " + fields.size() + " columns");
      }
      if (range.isEmpty()) {
        return new Decision(Action.SKIP, spec);
      }
      ArrowType type = fields.get(column).getType();
      if (KeyRangeBuilder.supports(type)) {
        String name = spec.columns().get(column);
        added.add(new ColumnPredicate(name, ColumnPredicate.Op.GE, literal(type, range.min())));
        added.add(new ColumnPredicate(name, ColumnPredicate.Op.LE, literal(type, range.max())));
      }
    }
    if (added.isEmpty() || split.format() != FileFormat.PARQUET) {
      return read;
    }
    List<ColumnPredicate> conjuncts = new ArrayList<>(added);
    spec.predicate().ifPresent(planned -> conjuncts.addAll(planned.conjuncts()));
    ScanPredicate predicate = new ScanPredicate(conjuncts);
    ParquetFooter.Metadata footer;
    try {
      footer = ParquetFooter.read(Path.of(split.path()));
    } catch (RuntimeException e) {
      return read; // the reader reports what is wrong with the file
    }
    List<ParquetFooter.RowGroup> groups = footer.rowGroups();
    int kept = 0;
    for (ParquetFooter.RowGroup group : groups) {
      if (predicate.mightMatch(group)) {
        kept++;
      }
    }
    if (kept == 0) {
      return new Decision(Action.SKIP, spec);
    }
    Decision filter = new Decision(Action.FILTER, spec.withPredicate(Optional.of(predicate)));
    if (kept < groups.size() || keptShare(groups, added) <= MAX_KEPT_SHARE) {
      return filter;
    }
    return read;
  }

  /**
   * The share of a file's rows within the ranges of {@code added} (pairs of GE, LE conjuncts), from
   * each column's value range over the file's row groups, values taken as spread evenly; 1 where a
   * column has no statistics.
   */
  private static double keptShare(
      List<ParquetFooter.RowGroup> groups, List<ColumnPredicate> added) {
    double share = 1;
    for (int i = 0; i < added.size(); i += 2) {
      String column = added.get(i).column();
      BigDecimal low = null;
      BigDecimal high = null;
      for (ParquetFooter.RowGroup group : groups) {
        ColumnStats stats = group.columns().get(column);
        if (stats == null
            || !(stats.min() instanceof BigDecimal min)
            || !(stats.max() instanceof BigDecimal max)) {
          low = null;
          break;
        }
        low = low == null || min.compareTo(low) < 0 ? min : low;
        high = high == null || max.compareTo(high) > 0 ? max : high;
      }
      if (low == null) {
        continue;
      }
      BigDecimal from = ((BigDecimal) added.get(i).comparable()).max(low);
      BigDecimal to = ((BigDecimal) added.get(i + 1).comparable()).min(high);
      double width = high.subtract(low).doubleValue();
      double kept = to.subtract(from).doubleValue();
      share *= width <= 0 ? 1 : Math.max(0, Math.min(1, kept / width));
    }
    return share;
  }

  private static Object literal(ArrowType type, long value) {
    if (type instanceof ArrowType.Decimal decimal) {
      return BigDecimal.valueOf(value, decimal.getScale());
    }
    return value; // integers, and dates as epoch days
  }
}
