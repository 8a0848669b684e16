package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Reference.decimal;

import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Row-at-a-time reference semantics of every {@link ScalarFunction}. */
final class ReferenceFunctions {
  private ReferenceFunctions() {}

  static Object call(Reference ref, Call call) {
    ScalarFunction f = call.function();
    List<Expr> args = call.args();
    switch (f) {
      case AND:
      case OR:
        return logic(ref, f == ScalarFunction.AND, args);
      case IS_NULL:
        return ref.eval(args.get(0)) == null;
      case IS_NOT_NULL:
        return ref.eval(args.get(0)) != null;
      case COALESCE:
        for (Expr arg : args) {
          Object v = ref.eval(arg);
          if (v != null) {
            return ReferenceCasts.cast(v, arg.sqlType(), call.sqlType());
          }
        }
        return null;
      case NULLIF:
        {
          Object a = ref.eval(args.get(0));
          Object b = ref.eval(args.get(1));
          Object eq = comparison(ScalarFunction.EQUAL, args, java.util.Arrays.asList(a, b));
          return Boolean.TRUE.equals(eq) ? null : a;
        }
      case BETWEEN:
        {
          List<Object> v = values(ref, args);
          Object low = comparison(ScalarFunction.GREATER_THAN_OR_EQUAL, args, v);
          Object high =
              comparison(
                  ScalarFunction.LESS_THAN_OR_EQUAL,
                  List.of(args.get(0), args.get(2)),
                  java.util.Arrays.asList(v.get(0), v.get(2)));
          return and3(low, high);
        }
      default:
        break;
    }
    List<Object> values = values(ref, args);
    if (values.contains(null)) {
      return null;
    }
    List<Object> v = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      v.add(
          ReferenceCasts.cast(
              values.get(i), args.get(i).sqlType(), call.signature().operands().get(i)));
    }
    if (f.isComparison()) {
      return comparison(f, args, values);
    }
    switch (f) {
      case ADD:
      case SUBTRACT:
      case MULTIPLY:
      case DIVIDE:
      case MODULO:
        return ReferenceArithmetic.arithmetic(call, v.get(0), v.get(1));
      case NOT:
        return !(Boolean) v.get(0);
      case NEGATE:
        return ReferenceArithmetic.negate(call, v.get(0));
      case ABS:
        return compare(v.get(0), 0L) < 0 ? ReferenceArithmetic.negate(call, v.get(0)) : v.get(0);
      case ROUND:
        return ReferenceArithmetic.round(
            call, v.get(0), args.size() > 1 ? (Long) ((Literal) args.get(1)).value() : 0);
      case EXTRACT_YEAR:
      case EXTRACT_MONTH:
      case EXTRACT_DAY:
        LocalDate d =
            v.get(0) instanceof LocalDateTime
                ? ((LocalDateTime) v.get(0)).toLocalDate()
                : (LocalDate) v.get(0);
        return (long)
            (f == ScalarFunction.EXTRACT_YEAR
                ? d.getYear()
                : f == ScalarFunction.EXTRACT_MONTH ? d.getMonthValue() : d.getDayOfMonth());
      default:
        return ReferenceStrings.call(call, v);
    }
  }

  private static List<Object> values(Reference ref, List<Expr> args) {
    List<Object> values = new ArrayList<>();
    for (Expr arg : args) {
      values.add(ref.eval(arg));
    }
    return values;
  }

  private static Object logic(Reference ref, boolean and, List<Expr> args) {
    Object result = and;
    for (Expr arg : args) {
      Object v = ref.eval(arg);
      result = and ? and3(result, v) : or3(result, v);
      if (Boolean.valueOf(!and).equals(result)) {
        return result; // short circuit, like the engine
      }
    }
    return result;
  }

  static Object and3(Object a, Object b) {
    if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
      return false;
    }
    return a == null || b == null ? null : true;
  }

  static Object or3(Object a, Object b) {
    if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
      return true;
    }
    return a == null || b == null ? null : false;
  }

  /** A comparison after converting both sides to their common type. */
  static Object comparison(ScalarFunction f, List<Expr> args, List<Object> values) {
    if (values.get(0) == null || values.get(1) == null) {
      return null;
    }
    SqlType common =
        dev.quiver.plan.type.TypeRules.commonType(args.get(0).sqlType(), args.get(1).sqlType());
    Object a =
        ReferenceCasts.cast(
            values.get(0),
            args.get(0).sqlType(),
            common.isDecimal() ? args.get(0).sqlType() : common);
    Object b =
        ReferenceCasts.cast(
            values.get(1),
            args.get(1).sqlType(),
            common.isDecimal() ? args.get(1).sqlType() : common);
    int c = compare(a, b);
    switch (f) {
      case EQUAL:
        return c == 0;
      case NOT_EQUAL:
        return c != 0;
      case LESS_THAN:
        return c < 0;
      case LESS_THAN_OR_EQUAL:
        return c <= 0;
      case GREATER_THAN:
        return c > 0;
      default:
        return c >= 0;
    }
  }

  /** SQL order of two values of one type (numbers of any exact type compare exactly). */
  @SuppressWarnings("unchecked")
  static int compare(Object a, Object b) {
    if (a instanceof Double || b instanceof Double) {
      double x = ((Number) a).doubleValue();
      double y = ((Number) b).doubleValue();
      return x == y ? 0 : Double.compare(x, y); // -0.0 = 0.0; NaN = NaN, above all
    }
    if (a instanceof Number) {
      return decimal(a).compareTo(decimal(b));
    }
    if (a instanceof String) {
      return Integer.signum(codePointCompare((String) a, (String) b));
    }
    return ((Comparable<Object>) a).compareTo(b);
  }

  private static int codePointCompare(String a, String b) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] != y[i]) {
        return Integer.compare(x[i], y[i]);
      }
    }
    return Integer.compare(x.length, y.length);
  }

  static String upper(String s) {
    return s.toUpperCase(Locale.ROOT);
  }
}
