package dev.quiver.operators.expr;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.function.FunctionDefinition;
import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.operators.memory.Allocators;
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
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Constant folding, bottom up: a node whose children are all literals is evaluated once, by the
 * same kernels as at run time, and replaced by a literal. Also: TRUE/FALSE operands of AND/OR,
 * constant CASE conditions, NULL operands of COALESCE and of null-propagating functions.
 *
 * <p>A constant that fails to evaluate (say {@code 1 / 0}) stays unfolded: it raises its error only
 * if a row ever reaches it (it may sit in a CASE branch no row takes). Folding never changes an
 * expression's type: a simplified node of another type is wrapped in a CAST.
 */
final class ConstantFolder implements ExprVisitor<Expr> {
  Expr fold(Expr expr) {
    return expr.accept(this);
  }

  /** Evaluates a column-free expression to a literal, or null if evaluation fails. */
  static Literal evaluate(Expr expr) {
    Eval eval = new EvalBuilder().build(expr);
    EvalContext ctx = new EvalContext();
    try (BufferAllocator allocator = Allocators.newChild("constant-folding");
        VectorSchemaRoot empty = new VectorSchemaRoot(List.of(), List.of(), 1)) {
      ctx.start(empty, 1, allocator);
      try {
        FieldVector result = eval.evaluate(ctx, ctx.all()).vector;
        return new Literal(Values.read(result, 0, expr.sqlType()), expr.sqlType());
      } finally {
        ctx.release();
      }
    } catch (QuiverException e) {
      return null;
    }
  }

  @Override
  public Expr visitColumn(ColumnRef column) {
    return column;
  }

  @Override
  public Expr visitLiteral(Literal literal) {
    return literal;
  }

  @Override
  public Expr visitCall(Call call) {
    List<Expr> args = new ArrayList<>();
    for (Expr arg : call.args()) {
      args.add(fold(arg));
    }
    ScalarFunction function = call.function();
    if (function == ScalarFunction.AND || function == ScalarFunction.OR) {
      return retype(logic(function == ScalarFunction.AND, args), call.sqlType());
    }
    if (function == ScalarFunction.COALESCE) {
      return retype(coalesce(args, call.sqlType()), call.sqlType());
    }
    Call folded = args.equals(call.args()) ? call : new Call(function, args);
    if (function.propagatesNull() && args.stream().anyMatch(ConstantFolder::isNull)) {
      return new Literal(null, call.sqlType());
    }
    return constant(folded);
  }

  @Override
  public Expr visitFunction(FunctionCall call) {
    List<Expr> args = new ArrayList<>();
    for (Expr arg : call.args()) {
      args.add(fold(arg));
    }
    FunctionDefinition function = FunctionRegistry.definition(call);
    if (function.propagatesNull() && args.stream().anyMatch(ConstantFolder::isNull)) {
      return new Literal(null, call.sqlType());
    }
    FunctionCall folded = args.equals(call.args()) ? call : FunctionRegistry.call(function, args);
    if (!folded.sqlType().equals(call.sqlType())) {
      return call; // a literal argument decided the type differently: keep the call as it was
    }
    return function.deterministic() ? constant(folded) : folded;
  }

  /** AND/OR without their neutral operands, or the absorbing constant. */
  private Expr logic(boolean and, List<Expr> args) {
    List<Expr> kept = new ArrayList<>();
    for (Expr arg : args) {
      if (isBoolean(arg, !and)) {
        return arg; // FALSE for AND, TRUE for OR
      }
      if (!isBoolean(arg, and)) {
        kept.add(arg);
      }
    }
    if (kept.isEmpty()) {
      return new Literal(and, SqlType.BOOLEAN);
    }
    return kept.size() == 1
        ? kept.get(0)
        : constant(new Call(and ? ScalarFunction.AND : ScalarFunction.OR, kept));
  }

  private Expr coalesce(List<Expr> args, SqlType type) {
    List<Expr> kept = new ArrayList<>();
    for (Expr arg : args) {
      if (isNull(arg)) {
        continue;
      }
      kept.add(arg);
      if (arg instanceof Literal || !arg.nullable()) {
        break; // later arguments are never reached
      }
    }
    if (kept.isEmpty()) {
      return new Literal(null, type);
    }
    return kept.size() == 1 ? kept.get(0) : new Call(ScalarFunction.COALESCE, kept);
  }

  @Override
  public Expr visitCase(Case caseExpr) {
    List<Case.When> whens = new ArrayList<>();
    for (Case.When when : caseExpr.whens()) {
      Expr condition = fold(when.condition());
      Expr result = fold(when.result());
      if (isBoolean(condition, true) && whens.isEmpty()) {
        return retype(result, caseExpr.sqlType());
      }
      if (isBoolean(condition, false) || isNull(condition)) {
        continue; // never taken
      }
      whens.add(new Case.When(condition, result));
      if (isBoolean(condition, true)) {
        break; // later branches are never reached
      }
    }
    Expr elseResult = caseExpr.elseResult() == null ? null : fold(caseExpr.elseResult());
    if (whens.isEmpty()) {
      return elseResult == null
          ? new Literal(null, caseExpr.sqlType())
          : retype(elseResult, caseExpr.sqlType());
    }
    return retype(new Case(whens, elseResult), caseExpr.sqlType());
  }

  @Override
  public Expr visitCast(Cast cast) {
    Expr input = fold(cast.input());
    if (input.sqlType().equals(cast.sqlType())) {
      return input;
    }
    return constant(new Cast(input, cast.sqlType()));
  }

  @Override
  public Expr visitInList(InList inList) {
    List<Expr> items = new ArrayList<>();
    for (Expr item : inList.items()) {
      items.add(fold(item));
    }
    return constant(new InList(fold(inList.value()), items, inList.negated()));
  }

  @Override
  public Expr visitLike(Like like) {
    return constant(new Like(fold(like.input()), like.pattern(), like.escape(), like.negated()));
  }

  /** {@code expr} evaluated to a literal when all its children are literals. */
  private static Expr constant(Expr expr) {
    for (Expr child : expr.children()) {
      if (!(child instanceof Literal)) {
        return expr;
      }
    }
    Literal value = evaluate(expr);
    return value == null ? expr : value;
  }

  private Expr retype(Expr expr, SqlType type) {
    return expr.sqlType().equals(type) ? expr : fold(new Cast(expr, type));
  }

  private static boolean isNull(Expr expr) {
    return expr instanceof Literal && ((Literal) expr).isNull();
  }

  private static boolean isBoolean(Expr expr, boolean value) {
    return expr instanceof Literal && Boolean.valueOf(value).equals(((Literal) expr).value());
  }
}
