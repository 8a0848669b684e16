package dev.quiver.operators.function;

import java.util.List;

/**
 * A {@link FunctionDefinition} whose names, arity and usage are given once, to the constructor, so
 * that a function's class holds only what is its own: the types it accepts and its kernel.
 */
public abstract class DeclaredFunction implements FunctionDefinition {
  private final String name;
  private final List<String> aliases;
  private final int minArgs;
  private final int maxArgs;
  private final String usage;

  /**
   * {@code name} and {@code aliases} lower case; {@code maxArgs} {@link Integer#MAX_VALUE} for a
   * variadic function; {@code usage} as an error message shows it: {@code lpad(string, length [,
   * fill])}.
   */
  protected DeclaredFunction(
      String name, List<String> aliases, int minArgs, int maxArgs, String usage) {
    this.name = name;
    this.aliases = List.copyOf(aliases);
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

  @Override
  public String toString() {
    return usage;
  }
}
