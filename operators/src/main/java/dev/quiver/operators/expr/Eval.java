package dev.quiver.operators.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A compiled expression node: evaluates column-at-a-time over a batch.
 *
 * <p>Contract of {@link #evaluate}: the returned column holds the value (and validity) of every row
 * in {@code selection}; other rows are unspecified, and callers never read them. Rows outside the
 * selection raise no errors: a CASE branch evaluates only the rows that take it, an AND operand
 * only the rows not yet FALSE. Type dispatch happens when the tree is compiled; evaluation makes
 * one virtual call per node and batch, and kernels loop over Arrow buffers.
 */
public abstract class Eval {
  public final SqlType type;

  /** The expression's one-line text, for error messages. */
  public final String text;

  public final Field field;

  protected Eval(SqlType type, String text) {
    this.type = requireNonNull(type, "type is null");
    this.text = requireNonNull(text, "text is null");
    this.field = new Field("", FieldType.nullable(type.arrow()), null);
  }

  public abstract Col evaluate(EvalContext ctx, Selection selection);

  /**
   * For BOOLEAN expressions: the rows of {@code selection} where the value is TRUE (not FALSE, not
   * NULL). Predicates override this to skip building a boolean vector.
   */
  public Selection select(EvalContext ctx, Selection selection) {
    if (selection.isEmpty()) {
      return selection;
    }
    return Bitmaps.selectTrue(ctx, evaluate(ctx, selection), selection);
  }

  @Override
  public String toString() {
    return text;
  }
}
