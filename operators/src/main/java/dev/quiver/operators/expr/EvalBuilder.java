package dev.quiver.operators.expr;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.Case;
import dev.quiver.plan.expr.Cast;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ExprVisitor;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.InList;
import dev.quiver.plan.expr.Like;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.expr.Signatures;
import dev.quiver.plan.type.SqlType;
import java.util.List;

/**
 * Compiles an expression tree into {@link Eval} nodes: the one place where types are dispatched.
 * Implicit conversions from {@link Signature#operands()} become cast nodes, or, for literals,
 * converted constants.
 */
final class EvalBuilder implements ExprVisitor<Eval> {
  Eval build(Expr expr) {
    return expr.accept(this);
  }

  /** {@code expr} converted to {@code target}. */
  Eval coerce(Expr expr, SqlType target) {
    if (expr.sqlType().equals(target)) {
      return build(expr);
    }
    Cast cast = new Cast(expr, target);
    if (expr instanceof Literal) {
      Literal converted = ConstantFolder.evaluate(cast);
      if (converted != null) {
        return new ConstantEval(converted);
      }
    }
    return build(cast);
  }

  private Eval[] operands(Call call) {
    Signature signature = call.signature();
    Eval[] operands = new Eval[call.args().size()];
    for (int i = 0; i < operands.length; i++) {
      operands[i] = coerce(call.arg(i), signature.operands().get(i));
    }
    return operands;
  }

  @Override
  public Eval visitColumn(ColumnRef column) {
    return new ColumnEval(column);
  }

  @Override
  public Eval visitLiteral(Literal literal) {
    return new ConstantEval(literal);
  }

  @Override
  public Eval visitCall(Call call) {
    ScalarFunction function = call.function();
    SqlType type = call.sqlType();
    String text = call.toString();
    Eval[] args = operands(call);
    switch (function) {
      case ADD:
      case SUBTRACT:
      case MULTIPLY:
      case DIVIDE:
      case MODULO:
        return arithmetic(call, args);
      case EQUAL:
      case NOT_EQUAL:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return compare(text, function, args[0], args[1]);
      case BETWEEN:
        return new LogicEval(
            text,
            true,
            new Eval[] {
              compare(text, ScalarFunction.GREATER_THAN_OR_EQUAL, args[0], args[1]),
              compare(text, ScalarFunction.LESS_THAN_OR_EQUAL, args[0], args[2])
            });
      case AND:
      case OR:
        return new LogicEval(text, function == ScalarFunction.AND, args);
      case NOT:
        return new NotEval(text, NotEval.Kind.NOT, args[0]);
      case IS_NULL:
        return new NotEval(text, NotEval.Kind.IS_NULL, args[0]);
      case IS_NOT_NULL:
        return new NotEval(text, NotEval.Kind.IS_NOT_NULL, args[0]);
      case COALESCE:
        return CaseEval.coalesce(type, text, args);
      case NULLIF:
        return nullIf(call, text);
      case NEGATE:
      case ABS:
      case ROUND:
        return MathEval.create(call, args);
      case CONCAT:
      case UPPER:
      case LOWER:
      case CHAR_LENGTH:
      case TRIM_BOTH:
      case TRIM_LEADING:
      case TRIM_TRAILING:
      case SUBSTRING:
        return StringEval.create(call, args);
      case EXTRACT_YEAR:
      case EXTRACT_MONTH:
      case EXTRACT_DAY:
        return new ExtractEval(call, args[0]);
      default:
        throw new IllegalStateException("no kernel for " + function);
    }
  }

  @Override
  public Eval visitFunction(FunctionCall call) {
    Eval[] args = new Eval[call.args().size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = coerce(call.arg(i), call.signature().operands().get(i));
    }
    return FunctionRegistry.definition(call).kernel(call, args);
  }

  private Eval arithmetic(Call call, Eval[] args) {
    SqlType type = call.sqlType();
    String text = call.toString();
    ScalarFunction op = call.function();
    if (args[0].type.isDatetime() || args[0].type.isInterval() || args[1].type.isDatetime()) {
      return new DateArithmetic(type, text, op, args[0], args[1]);
    }
    switch (type.kind()) {
      case INTEGER:
      case BIGINT:
        return new IntegerArithmetic(type, text, op, args[0], args[1]);
      case REAL:
      case DOUBLE:
        return new FloatArithmetic(type, text, op, args[0], args[1]);
      case DECIMAL:
        return new DecimalArithmetic(type, text, op, args[0], args[1]);
      default:
        throw new QuiverException(ErrorCode.UNSUPPORTED_TYPE, "no arithmetic for " + text);
    }
  }

  /**
   * A comparison; a decimal literal compared with a decimal of larger scale is rescaled once here,
   * so that the kernel compares equal scales ({@code l_quantity < 24} compares 24.00).
   */
  private static Eval compare(String text, ScalarFunction op, Eval left, Eval right) {
    if (left.type.isDecimal() && right.type.isDecimal()) {
      if (right.type.scale() < left.type.scale()) {
        right = aligned(right, left.type.scale());
      } else if (left.type.scale() < right.type.scale()) {
        left = aligned(left, right.type.scale());
      }
    }
    return new CompareEval(text, op, left, right);
  }

  private static Eval aligned(Eval constant, int scale) {
    SqlType type = constant.type;
    int precision = type.precision() - type.scale() + scale;
    if (!(constant instanceof ConstantEval) || precision > SqlType.MAX_PRECISION) {
      return constant;
    }
    Literal value =
        ConstantFolder.evaluate(
            new Cast(
                new Literal(((ConstantEval) constant).value, type),
                SqlType.decimal(precision, scale)));
    return value == null ? constant : new ConstantEval(value);
  }

  /** {@code NULLIF(a, b)} is {@code CASE WHEN a = b THEN NULL ELSE a END}. */
  private Eval nullIf(Call call, String text) {
    List<Expr> pair = List.of(call.arg(0), call.arg(1));
    Signature equal = Signatures.resolve(ScalarFunction.EQUAL, pair);
    Eval condition =
        new CompareEval(
            text,
            ScalarFunction.EQUAL,
            coerce(call.arg(0), equal.operands().get(0)),
            coerce(call.arg(1), equal.operands().get(1)));
    Eval value = coerce(call.arg(0), call.sqlType());
    return CaseEval.searched(
        call.sqlType(),
        text,
        new Eval[] {condition},
        new Eval[] {new ConstantEval(new Literal(null, call.sqlType()))},
        value);
  }

  @Override
  public Eval visitCase(Case caseExpr) {
    int n = caseExpr.whens().size();
    Eval[] conditions = new Eval[n];
    Eval[] results = new Eval[n];
    for (int j = 0; j < n; j++) {
      conditions[j] = build(caseExpr.whens().get(j).condition());
      results[j] = coerce(caseExpr.whens().get(j).result(), caseExpr.sqlType());
    }
    Eval elseResult =
        caseExpr.elseResult() == null ? null : coerce(caseExpr.elseResult(), caseExpr.sqlType());
    return CaseEval.searched(
        caseExpr.sqlType(), caseExpr.toString(), conditions, results, elseResult);
  }

  @Override
  public Eval visitCast(Cast cast) {
    Eval input = build(cast.input());
    if (input.type.equals(cast.sqlType())) {
      return input;
    }
    return CastEval.create(cast.toString(), input, cast.sqlType());
  }

  @Override
  public Eval visitInList(InList inList) {
    return InListEval.create(this, inList);
  }

  @Override
  public Eval visitLike(Like like) {
    return new LikeEval(like, build(like.input()));
  }
}
