package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.sort.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Computes one output column per expression over the input columns, named by {@code names}.
 *
 * <p>Partitioning and ordering survive where their columns are passed through as bare column
 * references: hash keys and sort keys are renumbered to the output position; a hash key that is not
 * passed through makes the partitioning unknown, and the ordering is cut before the first sort key
 * that is not.
 */
public final class Project extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final List<Expr> expressions;
  private final List<String> names;

  public Project(PlanNode input, List<Expr> expressions, List<String> names) {
    super(
        List.of(requireNonNull(input, "input is null")),
        schema(input, expressions, names),
        input.partitioning().remap(passThrough(input, expressions)),
        ordering(input, expressions));
    this.expressions = List.copyOf(expressions);
    this.names = List.copyOf(names);
  }

  private static RowSchema schema(PlanNode input, List<Expr> expressions, List<String> names) {
    requireNonNull(expressions, "expressions is null");
    requireNonNull(names, "names is null");
    PlanChecks.check(
        expressions.size() == names.size(),
        "Project",
        expressions.size() + " expressions but " + names.size() + " names");
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < expressions.size(); i++) {
      Expr expr = requireNonNull(expressions.get(i), "expression is null");
      PlanChecks.checkExpr(expr, input.schema(), "Project", "expression");
      columns.add(
          new Column(
              requireNonNull(names.get(i), "name is null"), expr.sqlType(), expr.nullable()));
    }
    return new RowSchema(columns);
  }

  /** For each input column, the first output position that passes it through, or -1. */
  private static int[] passThrough(PlanNode input, List<Expr> expressions) {
    int[] newIndex = new int[input.schema().size()];
    Arrays.fill(newIndex, -1);
    for (int i = expressions.size() - 1; i >= 0; i--) {
      // Only a bare column reference keeps the values (and so the partitioning) of a column.
      if (expressions.get(i) instanceof ColumnRef) {
        newIndex[((ColumnRef) expressions.get(i)).index()] = i;
      }
    }
    return newIndex;
  }

  private static List<SortKey> ordering(PlanNode input, List<Expr> expressions) {
    int[] newIndex = passThrough(input, expressions);
    List<SortKey> ordering = new ArrayList<>();
    for (SortKey key : input.ordering()) {
      int to = newIndex[key.column()];
      if (to < 0) {
        break;
      }
      ordering.add(new SortKey(to, key.ascending(), key.nullsFirst()));
    }
    return ordering;
  }

  public PlanNode input() {
    return child(0);
  }

  public List<Expr> expressions() {
    return expressions;
  }

  public List<String> names() {
    return names;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(expressions, names);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitProject(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Project(children.get(0), expressions, names);
  }

  /** {@code Project[#0 AS id, (#1 * 2) AS twice]}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("Project[");
    for (int i = 0; i < expressions.size(); i++) {
      text.append(i == 0 ? "" : ", ").append(expressions.get(i)).append(" AS ");
      text.append(names.get(i));
    }
    return text.append(']').toString();
  }
}
