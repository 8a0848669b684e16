package dev.quiver.operators.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.Expr;

/**
 * Compiles {@link Expr} trees into vectorized evaluators, and folds constants for the planner.
 *
 * <p>Compilation folds constants ({@link #fold}), then dispatches every node on its types once: the
 * resulting {@link CompiledExpression} is a tree of type-specialised kernels that loop over Arrow
 * buffers, with no per-row virtual calls, boxing or allocation on the common paths.
 */
public final class ExpressionCompiler {
  private ExpressionCompiler() {}

  /** Compiles {@code expr}; fails with a QuiverException for an unsupported operation. */
  public static CompiledExpression compile(Expr expr) {
    requireNonNull(expr, "expr is null");
    Expr folded = fold(expr);
    return new CompiledExpression(folded, new EvalBuilder().build(folded));
  }

  /**
   * {@code expr} with every constant subtree evaluated to a literal and trivial AND / OR / CASE /
   * COALESCE operands removed; the type never changes. A constant that fails to evaluate (such as
   * {@code 1 / 0}) is left as it is, to fail only if a row reaches it.
   */
  public static Expr fold(Expr expr) {
    requireNonNull(expr, "expr is null");
    return new ConstantFolder().fold(expr);
  }
}
