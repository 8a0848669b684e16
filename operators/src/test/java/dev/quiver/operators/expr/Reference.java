package dev.quiver.operators.expr;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.Case;
import dev.quiver.plan.expr.Cast;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ExprVisitor;
import dev.quiver.plan.expr.InList;
import dev.quiver.plan.expr.Like;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.BatchRows;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.Period;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A naive row-at-a-time interpreter of expressions with boxed Java values (BigDecimal, String,
 * LocalDate, ...): the specification the vectorized kernels are tested against. Slow and simple on
 * purpose; shares no code with the kernels. Values are the canonical classes of {@link Literal}.
 */
final class Reference implements ExprVisitor<Object> {
  private final VectorSchemaRoot batch;
  private int row;

  Reference(VectorSchemaRoot batch) {
    this.batch = batch;
  }

  /** The value of {@code expr} at {@code row}; throws QuiverException like the engine. */
  Object evaluate(Expr expr, int row) {
    this.row = row;
    return expr.accept(this);
  }

  /** A vector value as the canonical Java value of {@code type}. */
  static Object canonical(FieldVector vector, int row, SqlType type) {
    Object raw = BatchRows.value(vector, row);
    if (raw == null) {
      return null;
    }
    switch (type.kind()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return ((Number) raw).longValue();
      case REAL:
      case DOUBLE:
        return ((Number) raw).doubleValue();
      case DATE:
        return raw instanceof Integer ? LocalDate.ofEpochDay((Integer) raw) : raw;
      case INTERVAL_YEAR_MONTH:
        return Period.ofMonths((int) ((Period) raw).toTotalMonths());
      default:
        return raw;
    }
  }

  static QuiverException error(ErrorCode code, String message) {
    return new QuiverException(code, message);
  }

  @Override
  public Object visitColumn(ColumnRef column) {
    return canonical(batch.getVector(column.index()), row, column.sqlType());
  }

  @Override
  public Object visitLiteral(Literal literal) {
    return literal.value();
  }

  @Override
  public Object visitCall(Call call) {
    return ReferenceFunctions.call(this, call);
  }

  @Override
  public Object visitFunction(dev.quiver.plan.expr.FunctionCall call) {
    throw new UnsupportedOperationException(
        "library functions are tested against expected values, not the reference: " + call);
  }

  Object eval(Expr expr) {
    return expr.accept(this);
  }

  @Override
  public Object visitCase(Case caseExpr) {
    for (Case.When when : caseExpr.whens()) {
      if (Boolean.TRUE.equals(eval(when.condition()))) {
        return ReferenceCasts.cast(
            eval(when.result()), when.result().sqlType(), caseExpr.sqlType());
      }
    }
    Expr elseResult = caseExpr.elseResult();
    return elseResult == null
        ? null
        : ReferenceCasts.cast(eval(elseResult), elseResult.sqlType(), caseExpr.sqlType());
  }

  @Override
  public Object visitCast(Cast cast) {
    return ReferenceCasts.cast(eval(cast.input()), cast.input().sqlType(), cast.sqlType());
  }

  @Override
  public Object visitInList(InList inList) {
    Object value = eval(inList.value());
    if (value == null) {
      return null;
    }
    SqlType common = inList.operandType();
    Object v = ReferenceCasts.cast(value, inList.value().sqlType(), common);
    boolean sawNull = false;
    for (Expr item : inList.items()) {
      Object x = ReferenceCasts.cast(eval(item), item.sqlType(), common);
      if (x == null) {
        sawNull = true;
      } else if (ReferenceFunctions.compare(v, x) == 0) {
        return !inList.negated();
      }
    }
    return sawNull ? null : inList.negated();
  }

  @Override
  public Object visitLike(Like like) {
    Object value = eval(like.input());
    if (value == null) {
      return null;
    }
    boolean matches = likeRegex(like.pattern(), like.escape()).matcher((String) value).matches();
    return matches != like.negated();
  }

  /** The LIKE pattern as a java.util.regex pattern (DOTALL: '_' and '%' match newlines too). */
  static Pattern likeRegex(String pattern, Character escape) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (escape != null && c == escape) {
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  /** BigDecimal of any exact number. */
  static BigDecimal decimal(Object value) {
    return value instanceof BigDecimal ? (BigDecimal) value : BigDecimal.valueOf((Long) value);
  }

  static List<Object> rowValues(VectorSchemaRoot batch, int row) {
    return BatchRows.row(batch, row);
  }
}
