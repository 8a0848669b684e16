package dev.quiver.operators.function.string;

import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import java.util.List;

/** What the string functions' declarations share: argument checks. */
abstract class StringFunction extends DeclaredFunction {
  StringFunction(String name, List<String> aliases, int minArgs, int maxArgs, String usage) {
    super(name, aliases, minArgs, maxArgs, usage);
  }

  /** Whether argument {@code i} is an integer (any width: it is converted to BIGINT). */
  static boolean isInteger(List<Expr> args, int i) {
    return args.get(i).sqlType().isInteger();
  }

  /** Whether argument {@code i} is a string. */
  static boolean isString(List<Expr> args, int i) {
    return Kernels.isString(args.get(i).sqlType());
  }
}
