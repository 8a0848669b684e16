package dev.quiver.sql;

import dev.quiver.plan.node.ScanFilter;
import dev.quiver.plan.node.SplitUnit;
import java.util.List;

/**
 * Skips split units at planning time: given a filter a scan pushed down, the units of a table that
 * may hold a row satisfying it, each weighing only what will be read of it. A catalog table whose
 * connector keeps statistics provides one (for Parquet files: min/max per row group); the stage
 * planner then balances tasks over what remains.
 */
@FunctionalInterface
public interface SplitPruner {
  /**
   * The units that may hold rows satisfying {@code filter}. Must never leave out a unit holding
   * such a row, and must return units the table's connector accepts for a scan with {@code filter}.
   */
  List<SplitUnit> units(ScanFilter filter);
}
