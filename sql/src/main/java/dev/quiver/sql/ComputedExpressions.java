package dev.quiver.sql;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.Scan;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Compiles a computed column's SQL expression ({@code ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3)}) into a
 * Quiver expression over the columns a connector reads, with Quiver's own SQL: the same parser,
 * validator, functions and types as a query's, so a computed column means what the same expression
 * in a {@code SELECT} means. It plans {@code SELECT <every column>, (<expression>) FROM <table>}
 * over a catalog holding only the table's read row and takes the projection's last expression (the
 * leading columns keep the scan from being narrowed, so the expression's columns are the row's).
 */
final class ComputedExpressions {
  // Calcite's position prefix: the positions are of the generated SELECT, not of the DDL.
  private static final Pattern CODE = Pattern.compile("^\\[[A-Z_]+\\] ");
  private static final Pattern PREFIX =
      Pattern.compile("^(From|At) line \\d+, column \\d+( to line \\d+, column \\d+)?: ");
  private static final Pattern INLINE = Pattern.compile(" at line \\d+, column \\d+");

  private ComputedExpressions() {}

  /**
   * {@code sql}, the expression of column {@code column} of {@code table}, over {@code read}.
   *
   * @throws QuiverException one line naming the column when the expression does not parse, names a
   *     column that is not physical or metadata, has a type error or is not a scalar expression
   */
  static Expr compile(String table, RowSchema read, String column, String sql) {
    Catalog catalog = new Catalog().add(new CatalogTable(table, read, 1, List.of(), Map.of()));
    // The expression alone first: its errors are about it (not about the columns beside it).
    PlanNode alone =
        plan(catalog, "SELECT (" + sql + ") FROM " + quote(table), table, read, column, sql);
    if (!(alone instanceof Scan || alone instanceof Project p && p.input() instanceof Scan)) {
      throw Errors.invalid(
          "the computed column "
              + column
              + " AS "
              + sql
              + " is not a scalar expression of the row (an aggregate, a window or a subquery"
              + " cannot compute a column)",
          null);
    }
    StringBuilder select = new StringBuilder("SELECT ");
    for (Column c : read.columns()) {
      select.append(quote(c.name())).append(", ");
    }
    select.append("(").append(sql).append(") FROM ").append(quote(table));
    PlanNode plan = plan(catalog, select.toString(), table, read, column, sql);
    if (plan instanceof Project project
        && project.input() instanceof Scan scan
        && scan.source().schema().equals(read)
        && project.expressions().size() == read.size() + 1) {
      return project.expressions().get(read.size());
    }
    // Text that closes the parentheses around it and goes on as a query of its own.
    throw Errors.invalid(
        "the computed column " + column + " AS " + sql + " is not one scalar expression", null);
  }

  private static PlanNode plan(
      Catalog catalog, String query, String table, RowSchema read, String column, String sql) {
    try {
      return new SqlPlanner(catalog).plan(query, PlannerOptions.of(1));
    } catch (QuiverException e) {
      String message = e.getMessage();
      int newline = message.indexOf('\n');
      message = newline < 0 ? message : message.substring(0, newline);
      throw new QuiverException(
          e.code(),
          "the computed column "
              + column
              + " AS "
              + sql
              + ": "
              + withoutPositions(message)
              + " (a computed column reads the physical and metadata columns of "
              + table
              + ": "
              + String.join(", ", read.columns().stream().map(Column::name).toList())
              + ")",
          e);
    }
  }

  private static String withoutPositions(String message) {
    String text = CODE.matcher(message).replaceFirst("");
    text = PREFIX.matcher(text).replaceFirst("");
    return INLINE.matcher(text).replaceAll("").strip();
  }

  private static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
