package dev.quiver.operators.function.string;

import dev.quiver.operators.function.FunctionDefinition;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import java.util.List;

/** What the string functions' declarations share: names, arity and usage given once. */
abstract class StringFunction implements FunctionDefinition {
  private final String name;
  private final List<String> aliases;
  private final int minArgs;
  private final int maxArgs;
  private final String usage;

  StringFunction(String name, List<String> aliases, int minArgs, int maxArgs, String usage) {
    this.name = name;
    this.aliases = aliases;
    this.minArgs = minArgs;
    this.maxArgs = maxArgs;
    this.usage = usage;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final List<String> aliases() {
    return aliases;
  }

  @Override
  public final int minArgs() {
    return minArgs;
  }

  @Override
  public final int maxArgs() {
    return maxArgs;
  }

  @Override
  public final String usage() {
    return usage;
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
