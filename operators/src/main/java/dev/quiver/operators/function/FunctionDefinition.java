package dev.quiver.operators.function;

import dev.quiver.operators.expr.Eval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import java.util.List;

/**
 * One SQL library function, declared once: its names, the argument types it accepts and the type it
 * returns ({@link #resolve}), and its vectorized kernel ({@link #kernel}). Everything else derives
 * from this: the SQL front end makes Calcite's operator from it (validation, result type), the
 * planner builds {@link FunctionCall}s through the {@link FunctionRegistry}, constant folding runs
 * the kernel over one row. Adding a function is one class implementing this, listed in its family
 * ({@code StringFunctions}, {@code MathFunctions}, {@code DateFunctions}), plus its tests.
 */
public interface FunctionDefinition {
  /** The canonical name, lower case, as SQL spells it. */
  String name();

  /** Other names for the same function (lower case), e.g. {@code strpos} for {@code position}. */
  default List<String> aliases() {
    return List.of();
  }

  int minArgs();

  /** {@link Integer#MAX_VALUE} for variadic functions. */
  int maxArgs();

  /** How to call it, for error messages: {@code lpad(string, length [, fill])}. */
  String usage();

  /**
   * The signature for these arguments: the result type and the type each argument converts to, or
   * null when the function does not accept their types. Arguments are given as expressions so that
   * a function may depend on a literal (the unit of {@code date_trunc}); only their types and
   * whether they are {@link dev.quiver.plan.expr.Literal}s may be read.
   */
  Signature resolve(List<Expr> args);

  /** Whether the result can be NULL; by default when any argument can. */
  default boolean nullable(List<Expr> args) {
    for (Expr arg : args) {
      if (arg.nullable()) {
        return true;
      }
    }
    return false;
  }

  /** Whether a NULL argument always gives NULL (constant folding relies on it). */
  default boolean propagatesNull() {
    return true;
  }

  /** Whether the same arguments always give the same result (only then is a call folded). */
  default boolean deterministic() {
    return true;
  }

  /**
   * The kernel for {@code call}; {@code args} are the compiled arguments, already converted to the
   * signature's operand types.
   */
  Eval kernel(FunctionCall call, Eval[] args);
}
