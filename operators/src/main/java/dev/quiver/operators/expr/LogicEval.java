package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * SQL three-valued AND / OR of two or more operands, with short circuit: each operand is evaluated
 * only on the rows whose result is still open (for AND the rows not yet FALSE, for OR the rows not
 * yet TRUE), so {@code b <> 0 AND a / b > 1} never divides by zero.
 *
 * <p>Values are tracked 64 rows at a time as two bitmaps, known-TRUE {@code T} and known-FALSE
 * {@code F} (NULL is neither): AND is {@code T = T1 & T2, F = F1 | F2}, OR is {@code T = T1 | T2, F
 * = F1 & F2}. Rows an operand skipped are already decided, and the formulas keep them so whatever
 * the operand holds there.
 */
final class LogicEval extends Eval {
  private final boolean and;
  private final Eval[] operands;

  LogicEval(String text, boolean and, Eval[] operands) {
    super(SqlType.BOOLEAN, text);
    this.and = and;
    this.operands = operands;
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    int rows = ctx.rows();
    int words = Bitmaps.words(rows);
    long[] known = ctx.longs(words); // T for AND's open rows... see loop
    long[] decided = ctx.longs(words);
    Selection open = selection;
    for (int j = 0; j < operands.length; j++) {
      Col value = operands[j].evaluate(ctx, open);
      for (int w = 0; w < words; w++) {
        long valid = Bitmaps.validWord(value, w, rows);
        long data = Bitmaps.dataWord(value, w, rows);
        long t = data & valid;
        long f = ~data & valid;
        if (j == 0) {
          known[w] = t;
          decided[w] = f;
        } else if (and) {
          known[w] &= t;
          decided[w] |= f;
        } else {
          known[w] |= t;
          decided[w] &= f;
        }
      }
      if (j + 1 < operands.length) {
        // AND continues on rows not known FALSE; OR on rows not known TRUE.
        open = undecided(ctx, open, and ? decided : known);
        if (open.isEmpty()) {
          break;
        }
      }
    }
    FieldVector out = ctx.newVector(field);
    ArrowBuf data = out.getDataBuffer();
    ArrowBuf validity = out.getValidityBuffer();
    for (int w = 0; w < words; w++) {
      Bitmaps.putWord(data, w, known[w], rows);
      Bitmaps.putWord(validity, w, known[w] | decided[w], rows);
    }
    out.setValueCount(rows);
    return Col.of(out);
  }

  /** The rows of {@code selection} whose bit in {@code settled} is clear. */
  private static Selection undecided(EvalContext ctx, Selection selection, long[] settled) {
    int[] rows = selection.rows();
    int[] out = ctx.ints(selection.size());
    int count = 0;
    for (int k = 0; k < selection.size(); k++) {
      int i = rows[k];
      out[count] = i;
      count += (int) (~settled[i >>> 6] >>> (i & 63)) & 1;
    }
    return new Selection(out, count, count == selection.size() && selection.isAll());
  }

  /** AND narrows the selection operand by operand; OR unites the TRUE rows of each. */
  @Override
  public Selection select(EvalContext ctx, Selection selection) {
    if (and) {
      Selection kept = selection;
      for (int j = 0; j < operands.length && !kept.isEmpty(); j++) {
        kept = operands[j].select(ctx, kept);
      }
      return kept;
    }
    byte[] taken = ctx.bytes(ctx.rows());
    int[] rows = selection.rows();
    for (int k = 0; k < selection.size(); k++) {
      taken[rows[k]] = 0;
    }
    Selection open = selection;
    for (int j = 0; j < operands.length && !open.isEmpty(); j++) {
      Selection hits = operands[j].select(ctx, open);
      int[] hitRows = hits.rows();
      for (int k = 0; k < hits.size(); k++) {
        taken[hitRows[k]] = 1;
      }
      open = Bitmaps.minus(ctx, open, hits);
    }
    return Bitmaps.selectTruth(ctx, taken, selection);
  }
}
