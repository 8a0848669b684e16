package dev.quiver.plan.changelog;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.List;

/** Plans of changelogs ({@link RowKind}). */
public final class Changelogs {
  private Changelogs() {}

  /**
   * {@code plan}, an append-only result, as a changelog: its columns, then the row kind {@code +I}
   * ({@link RowKind#COLUMN}) for every row, as an upsert sink takes it.
   */
  public static PlanNode inserts(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    List<Expr> expressions = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<Column> columns = plan.schema().columns();
    for (int i = 0; i < columns.size(); i++) {
      Column column = columns.get(i);
      expressions.add(new ColumnRef(i, column.type(), column.nullable(), column.name()));
      names.add(column.name());
    }
    expressions.add(new Literal((long) RowKind.INSERT.code(), SqlType.TINYINT));
    names.add(RowKind.COLUMN);
    return new Project(plan, expressions, names);
  }
}
