package dev.quiver.sql;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;

/**
 * The target side of {@code INSERT INTO t SELECT ...}: which catalog table {@code t} is, and the
 * query's rows made into {@code t}'s columns.
 *
 * <p>As in Flink SQL, the query's columns go into the target's by position: as many, each of the
 * target's type or of one that widens into it without loss of range (a narrower integer into a
 * wider integer or a decimal with room for its digits, a decimal into one with as many integer and
 * fractional digits, any number into DOUBLE), which is then cast. Anything else is one {@link
 * dev.quiver.error.ErrorCode#INVALID_QUERY} line naming the column. A table with computed or
 * virtual metadata columns is written its physical columns only ({@link TableColumns#stored()}), as
 * Flink writes it. No column list ({@code INSERT INTO t (a, b)}), no {@code UPSERT}.
 */
final class InsertTargets {
  private InsertTargets() {}

  /** The table {@code insert} writes into. */
  static CatalogTable target(SqlInsert insert, Catalog catalog) {
    if (insert.isUpsert()) {
      throw Errors.unsupported("UPSERT INTO (use INSERT INTO)");
    }
    if (!(insert.getTargetTable() instanceof SqlIdentifier identifier)) {
      throw Errors.unsupported("INSERT INTO " + insert.getTargetTable() + ": name a table");
    }
    if (identifier.names.size() != 1) {
      throw Errors.unsupported(
          "INSERT INTO " + identifier + ": qualified table names (Quiver has one catalog)");
    }
    String name = identifier.names.get(0);
    Optional<CatalogTable> table = catalog.table(name);
    if (table.isEmpty()) {
      List<String> names = catalog.tables().stream().map(CatalogTable::name).toList();
      throw Errors.invalid(
          "INSERT INTO "
              + name
              + ": there is no table "
              + name
              + NameSuggestions.closest(name, names)
                  .map(s -> " (did you mean " + s + "?)")
                  .orElse("")
              + "; declare it with CREATE TABLE ... WITH ('connector' = ...)",
          null);
    }
    if (insert.getTargetColumnList() != null) {
      throw Errors.unsupported(
          "INSERT INTO "
              + name
              + " (columns): write every column of "
              + name
              + " in its order, without a column list");
    }
    return written(table.get());
  }

  /**
   * {@code table} as an INSERT writes it: its physical columns, as Flink writes a table with
   * computed and virtual metadata columns (they are read, never written).
   */
  private static CatalogTable written(CatalogTable table) {
    TableColumns columns = TableColumns.of(table.name(), table.schema(), table.options());
    if (columns.allPhysical()) {
      return table;
    }
    for (TableColumns.Declared column : columns.ofKind(TableColumns.Kind.METADATA)) {
      if (!column.virtual()) {
        throw Errors.unsupported(
            "INSERT INTO "
                + table.name()
                + ": its metadata column "
                + column.name()
                + " is not VIRTUAL, and Quiver's sinks write no record metadata; declare it"
                + " VIRTUAL (read only) to write the table");
      }
    }
    return new CatalogTable(
        table.name(), columns.stored(), table.rowCount(), table.units(), table.options());
  }

  /**
   * {@code query}'s rows as {@code target}'s columns: the target's names, and its types where the
   * query's are narrower (each column keeps its own nullability).
   */
  static RelNode project(RelNode query, CatalogTable target) {
    List<Column> columns = target.schema().columns();
    List<RelDataTypeField> fields = query.getRowType().getFieldList();
    String name = target.name();
    if (fields.size() != columns.size()) {
      throw Errors.invalid(
          "INSERT INTO "
              + name
              + ": the query has "
              + fields.size()
              + " columns and "
              + name
              + " has "
              + columns.size()
              + " ("
              + columns.stream().map(Column::name).collect(Collectors.joining(", "))
              + "): "
              + (fields.size() < columns.size()
                  ? "nothing is written to " + columns.get(fields.size()).name()
                  : "the query's column " + (columns.size() + 1) + " has no column to go to"),
          null);
    }
    RexBuilder rex = query.getCluster().getRexBuilder();
    RelDataTypeFactory factory = rex.getTypeFactory();
    List<RexNode> projects = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Column column = columns.get(i);
      RelDataTypeField field = fields.get(i);
      SqlType from = TypeMapping.fromCalcite(field.getType(), "column " + field.getName());
      RexNode ref = rex.makeInputRef(query, i);
      if (from.equals(column.type())) {
        projects.add(ref);
      } else if (widens(from, column.type())) {
        RelDataType to =
            TypeMapping.toCalcite(factory, column.type(), field.getType().isNullable());
        projects.add(rex.makeCast(to, ref));
      } else {
        throw Errors.invalid(
            "INSERT INTO "
                + name
                + ": the query's column "
                + (i + 1)
                + " '"
                + field.getName()
                + "' is "
                + from
                + " and cannot be written to "
                + name
                + "."
                + column.name()
                + " "
                + column.type()
                + " (CAST it)",
            null);
      }
      names.add(column.name());
    }
    return LogicalProject.create(query, List.of(), projects, names, Set.of());
  }

  /**
   * {@code plan} with exactly the target's column types: the translation types a literal by its
   * value ({@code 1.5} is DECIMAL(2,1) whatever Calcite made of it), so a column Calcite typed as
   * the target's may still need a cast here.
   */
  static PlanNode retype(PlanNode plan, CatalogTable target) {
    List<Column> columns = target.schema().columns();
    List<Expr> expressions = new ArrayList<>();
    boolean same = true;
    for (int i = 0; i < columns.size(); i++) {
      SqlType type = plan.schema().column(i).type();
      Expr column = Exprs.col(i, type, columns.get(i).name());
      if (type.equals(columns.get(i).type())) {
        expressions.add(column);
      } else {
        expressions.add(Exprs.cast(column, columns.get(i).type()));
        same = false;
      }
    }
    return same
        ? plan
        : new Project(plan, expressions, columns.stream().map(Column::name).toList());
  }

  /** Whether every value of {@code from} is a value of {@code to} (what is cast implicitly). */
  static boolean widens(SqlType from, SqlType to) {
    if (from.equals(to)) {
      return true;
    }
    if (to.kind() == SqlType.Kind.DOUBLE) {
      return from.isNumeric();
    }
    if (from.isInteger() && to.isInteger()) {
      return from.precision() <= to.precision();
    }
    if (from.isInteger() && to.isDecimal()) {
      return to.precision() - to.scale() >= from.precision();
    }
    if (from.isDecimal() && to.isDecimal()) {
      return to.scale() >= from.scale()
          && to.precision() - to.scale() >= from.precision() - from.scale();
    }
    return false;
  }
}
