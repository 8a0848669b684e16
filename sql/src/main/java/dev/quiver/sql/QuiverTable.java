package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.Column;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A {@link CatalogTable} seen by Calcite: row type from the Quiver schema, row count as the
 * statistic the optimizer uses. Translation back to a Quiver scan goes through {@link #table()}.
 */
final class QuiverTable extends AbstractTable {
  private final CatalogTable table;

  QuiverTable(CatalogTable table) {
    this.table = requireNonNull(table, "table is null");
  }

  CatalogTable table() {
    return table;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory factory) {
    RelDataTypeFactory.FieldInfoBuilder builder = factory.builder();
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
}
