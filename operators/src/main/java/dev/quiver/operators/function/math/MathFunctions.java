package dev.quiver.operators.function.math;

import dev.quiver.operators.function.FunctionDefinition;
import java.util.List;

/** The math functions, each declared in its own class. */
public final class MathFunctions {
  private MathFunctions() {}

  public static List<FunctionDefinition> all() {
    return List.of();
  }
}
