package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.vector.FieldVector;

/**
 * Searched CASE and COALESCE. Each branch is evaluated only on the rows that reach it: a condition
 * on the rows no earlier condition took, its result on the rows it took (a COALESCE argument on the
 * rows still NULL). Every row remembers its branch, and one pass gathers the values in row order.
 */
final class CaseEval extends Eval {
  private final Eval[] conditions; // null for COALESCE
  private final Eval[] results;
  private final Eval elseResult; // may be null: ELSE NULL

  private CaseEval(SqlType type, String text, Eval[] conditions, Eval[] results, Eval elseResult) {
    super(type, text);
    this.conditions = conditions;
    this.results = results;
    this.elseResult = elseResult;
  }

  /** {@code CASE WHEN conditions[j] THEN results[j] ... ELSE elseResult END}. */
  static CaseEval searched(
      SqlType type, String text, Eval[] conditions, Eval[] results, Eval elseResult) {
    return new CaseEval(type, text, conditions, results, elseResult);
  }

  /** {@code COALESCE(args...)}: the first non-NULL argument. */
  static CaseEval coalesce(SqlType type, String text, Eval[] args) {
    return new CaseEval(type, text, null, args, null);
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    int[] branch = ctx.ints(ctx.rows());
    Col[] values = new Col[results.length + 1];
    Selection remaining = selection;
    for (int j = 0; j < results.length && !remaining.isEmpty(); j++) {
      Selection taken;
      if (conditions == null) {
        values[j] = results[j].evaluate(ctx, remaining);
        taken = Bitmaps.selectNulls(ctx, values[j], remaining, false);
      } else {
        taken = conditions[j].select(ctx, remaining);
        if (!taken.isEmpty()) {
          values[j] = results[j].evaluate(ctx, taken);
        }
      }
      mark(branch, taken, j);
      remaining = Bitmaps.minus(ctx, remaining, taken);
    }
    if (elseResult != null && !remaining.isEmpty()) {
      values[results.length] = elseResult.evaluate(ctx, remaining);
      mark(branch, remaining, results.length);
    } else {
      mark(branch, remaining, -1);
    }
    FieldVector out = ctx.newVector(field);
    Gather.gather(values, branch, selection, out, ctx.rows());
    return Col.of(out);
  }

  private static void mark(int[] branch, Selection rows, int value) {
    int[] indices = rows.rows();
    for (int k = 0; k < rows.size(); k++) {
      branch[indices[k]] = value;
    }
  }
}
