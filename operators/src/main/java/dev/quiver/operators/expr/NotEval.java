package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * NOT (NULL stays NULL), IS NULL and IS NOT NULL (never NULL): whole-word operations on the
 * operand's bitmaps.
 */
final class NotEval extends Eval {
  enum Kind {
    NOT,
    IS_NULL,
    IS_NOT_NULL
  }

  private final Kind kind;
  private final Eval operand;

  NotEval(String text, Kind kind, Eval operand) {
    super(SqlType.BOOLEAN, text);
    this.kind = kind;
    this.operand = operand;
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col value = operand.evaluate(ctx, selection);
    int rows = ctx.rows();
    FieldVector out = ctx.newVector(field);
    ArrowBuf data = out.getDataBuffer();
    ArrowBuf validity = out.getValidityBuffer();
    for (int w = 0, words = Bitmaps.words(rows); w < words; w++) {
      long valid = Bitmaps.validWord(value, w, rows);
      switch (kind) {
        case NOT:
          Bitmaps.putWord(data, w, ~Bitmaps.dataWord(value, w, rows), rows);
          Bitmaps.putWord(validity, w, valid, rows);
          break;
        case IS_NULL:
          Bitmaps.putWord(data, w, ~valid, rows);
          Bitmaps.putWord(validity, w, -1L, rows);
          break;
        default:
          Bitmaps.putWord(data, w, valid, rows);
          Bitmaps.putWord(validity, w, -1L, rows);
      }
    }
    out.setValueCount(rows);
    return Col.of(out);
  }

  @Override
  public Selection select(EvalContext ctx, Selection selection) {
    if (kind == Kind.NOT) {
      return super.select(ctx, selection);
    }
    Col value = operand.evaluate(ctx, selection);
    return Bitmaps.selectNulls(ctx, value, selection, kind == Kind.IS_NULL);
  }
}
