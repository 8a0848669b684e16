package dev.quiver.formats;

import dev.quiver.plan.node.ScanFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The file layer's form of a plan's pushed-down filter: a {@link ScanFilter} (the stage graph's,
 * which knows nothing of files) as a {@link ScanPredicate} that {@code SplitPlanner} skips files
 * and row groups with and {@code SubstraitFilter} hands to Arrow's Parquet reader. Literal values
 * map one to one (integers as Long, decimals as BigDecimal, dates as LocalDate, timestamps as
 * LocalDateTime, strings, booleans), so both sides compare the same values.
 */
public final class ScanPredicates {
  private ScanPredicates() {}

  public static ScanPredicate of(ScanFilter filter) {
    List<ColumnPredicate> conjuncts = new ArrayList<>(filter.conjuncts().size());
    for (ScanFilter.Comparison comparison : filter.conjuncts()) {
      conjuncts.add(
          new ColumnPredicate(
              comparison.column(),
              ColumnPredicate.Op.valueOf(comparison.op().name()),
              comparison.value().value()));
    }
    return new ScanPredicate(conjuncts);
  }

  public static Optional<ScanPredicate> of(Optional<ScanFilter> filter) {
    return filter.map(ScanPredicates::of);
  }
}
