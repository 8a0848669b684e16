package dev.quiver.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's constant folding, except for the casts whose result Calcite computes differently from
 * Quiver's kernels: to a string (Calcite prints {@code TRUE} and {@code .05}, Quiver {@code true}
 * and {@code 0.05}) and from a fractional number to an integer (Calcite truncates, Quiver rounds
 * half away from zero). Those stay in the plan and are evaluated by the kernels, so a constant
 * gives the same answer as a column holding the same value.
 *
 * <p>UPPER and LOWER stay for the kernels too ({@link #changesCase}).
 *
 * <p>Calcite cannot fold {@link DateDays#DAYS} (date ± integer): a date literal ± an integer
 * literal is folded here, anything else with DAYS stays for the kernels.
 */
final class FoldingExecutor implements RexExecutor {
  static final FoldingExecutor INSTANCE = new FoldingExecutor();

  private FoldingExecutor() {}

  @Override
  public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
    boolean[] kept = new boolean[constExps.size()];
    List<RexNode> foldable = new ArrayList<>();
    List<RexNode> expressions = new ArrayList<>();
    for (RexNode expression : constExps) {
      expressions.add(DateDays.foldLiterals(rexBuilder, expression));
    }
    for (int i = 0; i < expressions.size(); i++) {
      kept[i] = keepsUnfolded(expressions.get(i));
      if (!kept[i]) {
        foldable.add(expressions.get(i));
      }
    }
    List<RexNode> folded = new ArrayList<>();
    RexUtil.EXECUTOR.reduce(rexBuilder, foldable, folded);
    int next = 0;
    for (int i = 0; i < constExps.size(); i++) {
      reducedValues.add(kept[i] ? expressions.get(i) : folded.get(next++));
    }
  }

  private static boolean keepsUnfolded(RexNode expression) {
    Boolean found =
        expression.accept(
            new RexVisitorImpl<Boolean>(true) {
              @Override
              public Boolean visitCall(RexCall call) {
                if ((call.getKind() == SqlKind.CAST && differs(call))
                    || DateDays.isDays(call)
                    || changesCase(call)) {
                  return true;
                }
                for (RexNode operand : call.getOperands()) {
                  if (Boolean.TRUE.equals(operand.accept(this))) {
                    return true;
                  }
                }
                return false;
              }
            });
    return Boolean.TRUE.equals(found);
  }

  /**
   * UPPER and LOWER: Calcite folds them with {@code String.toUpperCase}, which turns 'ß' into "SS"
   * and then cuts the result to the argument's length ('straße' gave 'STRASS'); Quiver's kernels
   * map each code point to one code point.
   */
  private static boolean changesCase(RexCall call) {
    String name = call.getOperator().getName();
    return name.equals("UPPER") || name.equals("LOWER");
  }

  private static boolean differs(RexCall cast) {
    SqlTypeName to = cast.getType().getSqlTypeName();
    SqlTypeName from = cast.getOperands().get(0).getType().getSqlTypeName();
    if (SqlTypeFamily.CHARACTER.getTypeNames().contains(to)
        && !SqlTypeFamily.CHARACTER.getTypeNames().contains(from)) {
      return true;
    }
    boolean toInteger = SqlTypeName.INT_TYPES.contains(to);
    boolean fromFraction = from == SqlTypeName.DECIMAL || SqlTypeName.APPROX_TYPES.contains(from);
    return toInteger && fromFraction;
  }
}
