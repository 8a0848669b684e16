package dev.quiver.operators.function.math;

import dev.quiver.operators.function.FunctionDefinition;
import java.util.List;

/** The math functions, each declared in its own class. */
public final class MathFunctions {
  private MathFunctions() {}

  public static List<FunctionDefinition> all() {
    return List.of(
        new Rounding(Rounding.Mode.FLOOR),
        new Rounding(Rounding.Mode.CEIL),
        new Rounding(Rounding.Mode.TRUNC),
        new DoubleFunction(DoubleFunction.Op.SQRT),
        new DoubleFunction(DoubleFunction.Op.CBRT),
        new DoubleFunction(DoubleFunction.Op.EXP),
        new DoubleFunction(DoubleFunction.Op.LN),
        new DoubleFunction(DoubleFunction.Op.LOG10),
        new DoubleFunction(DoubleFunction.Op.LOG),
        new DoubleFunction(DoubleFunction.Op.POWER),
        new Sign(),
        new Extremum(true),
        new Extremum(false));
  }
}
