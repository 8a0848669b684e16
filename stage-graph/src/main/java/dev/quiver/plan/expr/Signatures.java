package dev.quiver.plan.expr;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.type.SqlType.Kind;
import dev.quiver.plan.type.TypeRules;
import dev.quiver.plan.type.TypeRules.DecimalOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Resolves a function's argument types to a {@link Signature}, following {@link TypeRules}.
 *
 * <ul>
 *   <li>Arithmetic on numbers: {@link TypeRules#arithmetic}; integer and floating-point operands
 *       convert to the result type, exact operands to their decimal form (decimal kernels take
 *       operands of different scales). DATE or TIMESTAMP ± an interval keeps the date type, {@code
 *       interval + date} too; DATE − DATE is the INTEGER number of days, DATE ± an integer (and
 *       {@code integer + date}) adds that many days (operand BIGINT, result DATE); intervals of one
 *       kind add and subtract.
 *   <li>Comparisons, BETWEEN: operands convert to their {@linkplain TypeRules#commonType common
 *       type} (decimals keep their own scale, TINYINT and SMALLINT compare as INTEGER); intervals
 *       do not compare.
 *   <li>COALESCE: common type of all. NULLIF: the first argument's type. CONCAT: both sides as
 *       VARCHAR. SUBSTRING: (VARCHAR, BIGINT [, BIGINT]). CHAR_LENGTH, EXTRACT: INTEGER.
 *   <li>ABS, NEGATE: the operand's type, TINYINT and SMALLINT promoted to INTEGER. ROUND(x, d):
 *       integers and floats keep their type; {@code DECIMAL(p,s)} with {@code d < s} becomes {@code
 *       DECIMAL(p - s + max(d,0) + 1, max(d,0))} (one more digit for a carry).
 * </ul>
 */
public final class Signatures {
  private Signatures() {}

  /** The signature of {@code function} applied to {@code args}, or a QuiverException. */
  public static Signature resolve(ScalarFunction function, List<Expr> args) {
    if (args.size() < function.minArgs() || args.size() > function.maxArgs()) {
      throw new QuiverException(
          ErrorCode.INVALID_ARGUMENT,
          function + " takes " + arity(function) + " arguments, not " + args.size() + ": " + args);
    }
    List<SqlType> types = new ArrayList<>(args.size());
    for (Expr arg : args) {
      types.add(arg.sqlType());
    }
    Signature signature = resolveTypes(function, types, args);
    if (signature == null) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          function + " does not accept arguments of types " + types + ": " + args);
    }
    return signature;
  }

  private static Signature resolveTypes(
      ScalarFunction function, List<SqlType> types, List<Expr> args) {
    SqlType a = types.get(0);
    switch (function) {
      case ADD:
      case SUBTRACT:
        return additive(function, a, types.get(1));
      case MULTIPLY:
        return numeric(DecimalOp.MULTIPLY, a, types.get(1));
      case DIVIDE:
        return numeric(DecimalOp.DIVIDE, a, types.get(1));
      case MODULO:
        return numeric(DecimalOp.MODULO, a, types.get(1));
      case NEGATE:
      case ABS:
        return a.isNumeric() ? same(promoted(a), promoted(a)) : null;
      case EQUAL:
      case NOT_EQUAL:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
      case BETWEEN:
        List<SqlType> operands = comparable(types);
        return operands == null ? null : new Signature(SqlType.BOOLEAN, operands);
      case AND:
      case OR:
      case NOT:
        return all(types, SqlType.BOOLEAN) ? new Signature(SqlType.BOOLEAN, types) : null;
      case IS_NULL:
      case IS_NOT_NULL:
        return new Signature(SqlType.BOOLEAN, types);
      case COALESCE:
        SqlType common = common(types);
        return common == null
            ? null
            : new Signature(common, Collections.nCopies(types.size(), common));
      case NULLIF:
        return comparable(types) == null ? null : new Signature(a, types);
      case CONCAT:
        return Casts.canCast(a, SqlType.VARCHAR) && Casts.canCast(types.get(1), SqlType.VARCHAR)
            ? new Signature(SqlType.VARCHAR, List.of(SqlType.VARCHAR, SqlType.VARCHAR))
            : null;
      case UPPER:
      case LOWER:
      case TRIM_BOTH:
      case TRIM_LEADING:
      case TRIM_TRAILING:
        return all(types, SqlType.VARCHAR) ? new Signature(SqlType.VARCHAR, types) : null;
      case CHAR_LENGTH:
        return a.kind() == Kind.VARCHAR ? new Signature(SqlType.INTEGER, types) : null;
      case SUBSTRING:
        return substring(types);
      case ROUND:
        return round(types, args);
      case EXTRACT_YEAR:
      case EXTRACT_MONTH:
      case EXTRACT_DAY:
        return a.isDatetime() ? new Signature(SqlType.INTEGER, types) : null;
      default:
        throw new IllegalArgumentException("unknown function " + function);
    }
  }

  private static Signature additive(ScalarFunction function, SqlType a, SqlType b) {
    if (a.isNumeric() && b.isNumeric()) {
      return numeric(DecimalOp.ADD, a, b);
    }
    if (a.isDatetime() && b.isInterval()) {
      return new Signature(a, List.of(a, b));
    }
    if (function == ScalarFunction.ADD && a.isInterval() && b.isDatetime()) {
      return new Signature(b, List.of(a, b));
    }
    if (a.isInterval() && a.equals(b)) {
      return new Signature(a, List.of(a, b));
    }
    if (function == ScalarFunction.SUBTRACT && a.kind() == Kind.DATE && b.kind() == Kind.DATE) {
      return new Signature(SqlType.INTEGER, List.of(a, b));
    }
    // A number of days, as in PostgreSQL and DuckDB; never a fraction of one.
    if (a.kind() == Kind.DATE && b.isInteger()) {
      return new Signature(a, List.of(a, SqlType.BIGINT));
    }
    if (function == ScalarFunction.ADD && a.isInteger() && b.kind() == Kind.DATE) {
      return new Signature(b, List.of(SqlType.BIGINT, b));
    }
    return null;
  }

  private static Signature numeric(DecimalOp op, SqlType a, SqlType b) {
    SqlType result = TypeRules.arithmetic(op, a, b);
    if (result == null) {
      return null;
    }
    if (result.isDecimal()) {
      return new Signature(result, List.of(TypeRules.asDecimal(a), TypeRules.asDecimal(b)));
    }
    return new Signature(result, List.of(result, result));
  }

  /** Operand types for comparing all of {@code types} with each other, or null. */
  private static List<SqlType> comparable(List<SqlType> types) {
    SqlType common = common(types);
    if (common == null || common.isInterval()) {
      return null;
    }
    List<SqlType> operands = new ArrayList<>(types.size());
    for (SqlType type : types) {
      operands.add(common.isDecimal() ? TypeRules.asDecimal(type) : promoted(common));
    }
    return operands;
  }

  private static SqlType common(List<SqlType> types) {
    SqlType common = types.get(0);
    for (int i = 1; i < types.size() && common != null; i++) {
      common = TypeRules.commonType(common, types.get(i));
    }
    return common;
  }

  private static Signature substring(List<SqlType> types) {
    if (types.get(0).kind() != Kind.VARCHAR) {
      return null;
    }
    List<SqlType> operands = new ArrayList<>(List.of(SqlType.VARCHAR));
    for (int i = 1; i < types.size(); i++) {
      if (!types.get(i).isInteger()) {
        return null;
      }
      operands.add(SqlType.BIGINT);
    }
    return new Signature(SqlType.VARCHAR, operands);
  }

  private static Signature round(List<SqlType> types, List<Expr> args) {
    SqlType x = types.get(0);
    if (!x.isNumeric()) {
      return null;
    }
    int digits = 0;
    if (args.size() == 2) {
      Expr d = args.get(1);
      if (!(d instanceof Literal) || !d.sqlType().isInteger() || ((Literal) d).isNull()) {
        throw new QuiverException(
            ErrorCode.INVALID_ARGUMENT,
            "ROUND needs an integer literal as its second argument: " + d);
      }
      digits = Math.toIntExact((Long) ((Literal) d).value());
    }
    SqlType result = promoted(x);
    if (x.isDecimal() && digits < x.scale()) {
      int scale = Math.max(digits, 0);
      result = SqlType.decimal(Math.min(x.precision() - x.scale() + scale + 1, 38), scale);
    }
    List<SqlType> operands = new ArrayList<>(List.of(promoted(x)));
    if (args.size() == 2) {
      operands.add(SqlType.INTEGER);
    }
    return new Signature(result, operands);
  }

  /** TINYINT and SMALLINT compute as INTEGER. */
  private static SqlType promoted(SqlType type) {
    return type.kind() == Kind.TINYINT || type.kind() == Kind.SMALLINT ? SqlType.INTEGER : type;
  }

  private static Signature same(SqlType result, SqlType operand) {
    return new Signature(result, List.of(operand));
  }

  private static boolean all(List<SqlType> types, SqlType expected) {
    for (SqlType type : types) {
      if (!type.equals(expected)) {
        return false;
      }
    }
    return true;
  }

  private static String arity(ScalarFunction function) {
    if (function.minArgs() == function.maxArgs()) {
      return String.valueOf(function.minArgs());
    }
    return function.maxArgs() == Integer.MAX_VALUE
        ? "at least " + function.minArgs()
        : function.minArgs() + " to " + function.maxArgs();
  }
}
