package dev.quiver.operators.function;

import dev.quiver.operators.expr.Bitmaps;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.expr.Utf8Writer;
import dev.quiver.plan.expr.FunctionCall;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * A kernel with a VARCHAR result: evaluates the arguments, and hands the rows where none is NULL
 * (or, for a function that reads NULLs itself, all selected rows) to {@link #write}, which writes
 * each row's value straight into the result's buffers in ascending row order. Rows it does not
 * commit are NULL.
 */
public abstract class StringResultEval extends Eval {
  protected final Eval[] args;
  private final boolean propagatesNull;

  protected StringResultEval(FunctionCall call, Eval[] args, boolean propagatesNull) {
    super(call.sqlType(), call.toString());
    this.args = args;
    this.propagatesNull = propagatesNull;
  }

  protected StringResultEval(FunctionCall call, Eval[] args) {
    this(call, args, true);
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col[] values = Kernels.evaluate(ctx, args, selection);
    boolean nullConstant = Kernels.anyNullConstant(values);
    FieldVector out = ctx.newVector(field);
    Utf8Writer writer = new Utf8Writer((VarCharVector) out);
    if (!propagatesNull) {
      write(ctx, writer, values, selection);
    } else if (!nullConstant && !selection.isEmpty()) {
      write(ctx, writer, values, Kernels.nonNull(ctx, values, selection));
    }
    writer.finish(ctx.rows());
    return Col.of(out);
  }

  /**
   * Writes the value of each row of {@code rows}: {@code writer.begin(i)}, appends, {@code
   * writer.commit(i)} (or {@code commitNull}).
   */
  protected abstract void write(EvalContext ctx, Utf8Writer writer, Col[] values, Selection rows);

  /** The bytes of {@code value} at {@code row}, appended. */
  protected static void appendValue(Utf8Writer writer, Col value, int row) {
    int start = value.start(row);
    writer.append(value.data, start, value.end(row) - start);
  }

  static boolean bit(Col col, int row) {
    return !col.isNull(row) && Bitmaps.get(col.data, row & col.mask);
  }
}
