package dev.quiver.operators.expr;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.InList;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code value [NOT] IN (constants...)}: the constants become a sorted primitive array searched
 * with binary search (integers, dates, timestamps, booleans, floating point) or a short list
 * compared directly (decimals as two longs, strings as bytes). A list with non-constant items is
 * compiled as {@code value = a OR value = b ...}, which has the same three-valued result.
 */
final class InListEval extends Eval {
  private final Eval value;
  private final boolean negated;
  private final boolean hasNull;
  private long[] longs; // sorted
  private double[] doubles; // sorted, -0.0 normalised to 0.0
  private long[] decimalHigh;
  private long[] decimalLow;
  private byte[][] strings;

  private InListEval(String text, Eval value, boolean negated, boolean hasNull) {
    super(SqlType.BOOLEAN, text);
    this.value = value;
    this.negated = negated;
    this.hasNull = hasNull;
  }

  static Eval create(EvalBuilder builder, InList inList) {
    SqlType type = inList.operandType();
    List<Object> constants = new ArrayList<>();
    boolean hasNull = false;
    for (Expr item : inList.items()) {
      Eval converted = builder.coerce(item, type);
      if (!(converted instanceof ConstantEval)) {
        return builder.build(disjunction(inList));
      }
      Object constant = ((ConstantEval) converted).value;
      hasNull |= constant == null;
      if (constant != null) {
        constants.add(constant);
      }
    }
    InListEval eval =
        new InListEval(
            inList.toString(), builder.coerce(inList.value(), type), inList.negated(), hasNull);
    eval.load(type, constants);
    return eval;
  }

  /** {@code value = a OR value = b ...}, negated with NOT for NOT IN. */
  private static Expr disjunction(InList inList) {
    List<Expr> equalities = new ArrayList<>();
    for (Expr item : inList.items()) {
      equalities.add(new Call(ScalarFunction.EQUAL, List.of(inList.value(), item)));
    }
    Expr any = equalities.size() == 1 ? equalities.get(0) : new Call(ScalarFunction.OR, equalities);
    return inList.negated() ? new Call(ScalarFunction.NOT, List.of(any)) : any;
  }

  private void load(SqlType type, List<Object> constants) {
    int n = constants.size();
    switch (type.kind()) {
      case REAL:
      case DOUBLE:
        doubles = new double[n];
        for (int j = 0; j < n; j++) {
          doubles[j] = (Double) constants.get(j) + 0.0;
        }
        Arrays.sort(doubles);
        return;
      case DECIMAL:
        decimalHigh = new long[n];
        decimalLow = new long[n];
        Int128 x = new Int128();
        for (int j = 0; j < n; j++) {
          x.set(((BigDecimal) constants.get(j)).unscaledValue());
          decimalHigh[j] = x.hi;
          decimalLow[j] = x.lo;
        }
        return;
      case VARCHAR:
        strings = new byte[n][];
        for (int j = 0; j < n; j++) {
          strings[j] = ((String) constants.get(j)).getBytes(StandardCharsets.UTF_8);
        }
        return;
      default:
        longs = new long[n];
        for (int j = 0; j < n; j++) {
          longs[j] = asLong(constants.get(j));
        }
        Arrays.sort(longs);
    }
  }

  private static long asLong(Object constant) {
    if (constant instanceof Boolean) {
      return (Boolean) constant ? 1 : 0;
    }
    if (constant instanceof LocalDate) {
      return ((LocalDate) constant).toEpochDay();
    }
    if (constant instanceof LocalDateTime) {
      return Values.micros((LocalDateTime) constant);
    }
    return (Long) constant;
  }

  @Override
  public Col evaluate(EvalContext ctx, Selection selection) {
    Col in = value.evaluate(ctx, selection);
    byte[] match = ctx.bytes(ctx.rows());
    matches(ctx, in, selection, match);
    FieldVector out = ctx.newVector(field);
    ArrowBuf data = out.getDataBuffer();
    ArrowBuf validity = out.getValidityBuffer();
    int[] rows = selection.rows();
    for (int k = 0; k < selection.size(); k++) {
      int i = rows[k];
      boolean found = match[i] != 0;
      if (in.isNull(i) || !found && hasNull) {
        continue; // NULL
      }
      Bitmaps.set(validity, i);
      if (found != negated) {
        Bitmaps.set(data, i);
      }
    }
    out.setValueCount(ctx.rows());
    return Col.of(out);
  }

  @Override
  public Selection select(EvalContext ctx, Selection selection) {
    Col in = value.evaluate(ctx, selection);
    byte[] match = ctx.bytes(ctx.rows());
    matches(ctx, in, selection, match);
    int[] rows = selection.rows();
    for (int k = 0; k < selection.size(); k++) {
      int i = rows[k];
      boolean found = match[i] != 0;
      boolean isTrue = !in.isNull(i) && (negated ? !found && !hasNull : found);
      match[i] = (byte) (isTrue ? 1 : 0);
    }
    return Bitmaps.selectTruth(ctx, match, selection);
  }

  /** Sets {@code match[row]} to 1 where the row's value is one of the constants, else 0. */
  private void matches(EvalContext ctx, Col in, Selection selection, byte[] match) {
    int[] rows = selection.rows();
    int n = selection.size();
    ArrowBuf data = in.data;
    int m = in.mask;
    switch (value.type.kind()) {
      case REAL:
      case DOUBLE:
        boolean single = value.type.kind() == SqlType.Kind.REAL;
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          double v =
              single ? data.getFloat((long) (i & m) << 2) : data.getDouble((long) (i & m) << 3);
          match[i] = (byte) (Arrays.binarySearch(doubles, v + 0.0) >= 0 ? 1 : 0);
        }
        return;
      case DECIMAL:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          long at = (long) (i & m) << 4;
          long lo = data.getLong(at);
          long hi = data.getLong(at + 8);
          byte found = 0;
          for (int j = 0; j < decimalLow.length; j++) {
            found |= (byte) (decimalLow[j] == lo && decimalHigh[j] == hi ? 1 : 0);
          }
          match[i] = found;
        }
        return;
      case VARCHAR:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          int start = in.start(i);
          int length = in.end(i) - start;
          byte found = 0;
          for (int j = 0; j < strings.length && found == 0; j++) {
            byte[] s = strings[j];
            found =
                (byte)
                    (s.length == length && Utf8.regionMatches(data, start, s, 0, length) ? 1 : 0);
          }
          match[i] = found;
        }
        return;
      default:
        long[] values = ctx.longs(ctx.rows());
        NumericLoads.longs(in, value.type, selection, values);
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          match[i] = (byte) (Arrays.binarySearch(longs, values[i]) >= 0 ? 1 : 0);
        }
    }
  }
}
