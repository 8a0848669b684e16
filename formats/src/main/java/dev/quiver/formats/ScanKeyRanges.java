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
 *       that Arrow's reader skips the row groups they rule out (and drops the rows outside them),
 *       when they rule out some of the row groups the scan's own predicate keeps, but not all;
 *   <li>{@link Action#READ}: as planned, otherwise, and for files without statistics (CSV, Arrow
 *       IPC).
 * </ul>
 *
 * Why not filter rows where no row group is ruled out: Arrow's filter then decodes every row and
 * copies the ones it keeps, and measured on TPC-DS SF 1 (store_sales in no particular order, so
 * every row group spans every date) it cost more than the joins it spared: 13 star-join queries
 * took 6.97 / 7.03 s with it (a date range keeping a fifth of the rows filtered in Arrow) and 6.46
 * / 6.45 s without.
 *
 * <p>The decision only narrows what is read; the plan's filters and joins still check every row.
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
    int planned = 0; // row groups the planned predicate keeps
    int kept = 0; // and of those, the ones the ranges keep too
    for (ParquetFooter.RowGroup group : footer.rowGroups()) {
      if (spec.predicate().map(p -> p.mightMatch(group)).orElse(true)) {
        planned++;
        if (predicate.mightMatch(group)) {
          kept++;
        }
      }
    }
    if (kept == 0) {
      return new Decision(Action.SKIP, spec);
    }
    if (kept < planned) {
      return new Decision(Action.FILTER, spec.withPredicate(Optional.of(predicate)));
    }
    return read;
  }

  private static Object literal(ArrowType type, long value) {
    if (type instanceof ArrowType.Decimal decimal) {
      return BigDecimal.valueOf(value, decimal.getScale());
    }
    return value; // integers, and dates as epoch days
  }
}
