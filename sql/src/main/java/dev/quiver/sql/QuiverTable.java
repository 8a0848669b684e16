package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.Column;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A {@link CatalogTable} seen by Calcite: row type from the Quiver schema, row count as the
 * statistic the optimizer uses. Translation back to a Quiver scan goes through {@link #table()}.
 */
final class QuiverTable extends AbstractTable implements BuiltInMetadata.DistinctRowCount.Handler {
  private final CatalogTable table;

  QuiverTable(CatalogTable table) {
    this.table = requireNonNull(table, "table is null");
  }

  CatalogTable table() {
    return table;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory factory) {
    RelDataTypeFactory.Builder builder = factory.builder();
    for (Column column : table.schema().columns()) {
      builder.add(column.name(), TypeMapping.toCalcite(factory, column.type(), column.nullable()));
    }
    return builder.build();
  }

  @Override
  public Statistic getStatistic() {
    List<ImmutableBitSet> keys = new ArrayList<>();
    for (List<Integer> key : table.uniqueKeys()) {
      keys.add(ImmutableBitSet.of(key));
    }
    return Statistics.of(table.rowCount(), keys);
  }

  /**
   * Distinct values of {@code groupKey}'s columns in a scan of this table: the row count when they
   * include a unique key, else the product of the columns' distinct counts (a column without one
   * counts as many values as rows), never more than the rows the predicate leaves. Calcite asks the
   * table itself (it unwraps this handler from a scan's table).
   */
  @Override
  public Double getDistinctRowCount(
      RelNode rel, RelMetadataQuery mq, ImmutableBitSet groupKey, RexNode predicate) {
    if (groupKey.isEmpty()) {
      return 1.0;
    }
    double rows = table.rowCount() * RelMdUtil.guessSelectivity(predicate);
    for (List<Integer> key : table.uniqueKeys()) {
      if (groupKey.contains(ImmutableBitSet.of(key))) {
        return Math.max(1.0, rows);
      }
    }
    double product = 1.0;
    for (int column : groupKey) {
      product *= table.distinctCounts().getOrDefault(column, table.rowCount());
    }
    return Math.max(1.0, Math.min(product, rows));
  }
}
