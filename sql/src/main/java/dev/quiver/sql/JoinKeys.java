package dev.quiver.sql;

import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.type.TypeRules;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes the equi keys of a join hashable alike on both sides. The hash join compares keys of equal
 * type with SQL equality (NULL never matches), so two kinds of key need extra columns, appended
 * after the input's own columns:
 *
 * <ul>
 *   <li>keys of different types ({@code INTEGER = BIGINT}) are cast to their common type;
 *   <li>a null-safe key ({@code a IS NOT DISTINCT FROM b}, which decorrelation produces) on a
 *       nullable column becomes two keys, {@code a IS NULL} and {@code COALESCE(a, zero)}: NULL
 *       meets NULL as {@code (true, zero)}, and a value never meets NULL.
 * </ul>
 *
 * Keys that need neither are used as they are, with no projection.
 */
final class JoinKeys {
  /** One side after preparation: its plan and the key column indexes within it. */
  record Side(PlanBuilder plan, List<Integer> keys, int originalWidth) {}

  private JoinKeys() {}

  /**
   * Prepares both sides; {@code nullSafe.get(i)} says whether key pair i is IS NOT DISTINCT FROM.
   */
  static Side[] prepare(
      PlanBuilder left,
      List<Integer> leftKeys,
      PlanBuilder right,
      List<Integer> rightKeys,
      List<Boolean> nullSafe) {
    List<Expr> leftExtra = new ArrayList<>();
    List<Expr> rightExtra = new ArrayList<>();
    List<Integer> newLeft = new ArrayList<>();
    List<Integer> newRight = new ArrayList<>();
    int leftWidth = left.schema().size();
    int rightWidth = right.schema().size();
    for (int i = 0; i < leftKeys.size(); i++) {
      Column l = left.schema().column(leftKeys.get(i));
      Column r = right.schema().column(rightKeys.get(i));
      SqlType common =
          l.type().equals(r.type()) ? l.type() : TypeRules.commonType(l.type(), r.type());
      boolean nullMeetsNull = nullSafe.get(i) && (l.nullable() || r.nullable());
      ColumnRef lRef = ref(left, leftKeys.get(i));
      ColumnRef rRef = ref(right, rightKeys.get(i));
      if (nullMeetsNull) {
        newLeft.add(leftWidth + leftExtra.size());
        leftExtra.add(Exprs.call(ScalarFunction.IS_NULL, lRef));
        newRight.add(rightWidth + rightExtra.size());
        rightExtra.add(Exprs.call(ScalarFunction.IS_NULL, rRef));
        newLeft.add(leftWidth + leftExtra.size());
        leftExtra.add(
            Exprs.call(ScalarFunction.COALESCE, castIfNeeded(lRef, common), zero(common)));
        newRight.add(rightWidth + rightExtra.size());
        rightExtra.add(
            Exprs.call(ScalarFunction.COALESCE, castIfNeeded(rRef, common), zero(common)));
      } else if (!l.type().equals(r.type())) {
        newLeft.add(leftWidth + leftExtra.size());
        leftExtra.add(castIfNeeded(lRef, common));
        newRight.add(rightWidth + rightExtra.size());
        rightExtra.add(castIfNeeded(rRef, common));
      } else {
        newLeft.add(leftKeys.get(i));
        newRight.add(rightKeys.get(i));
      }
    }
    return new Side[] {
      new Side(append(left, leftExtra), newLeft, leftWidth),
      new Side(append(right, rightExtra), newRight, rightWidth)
    };
  }

  private static ColumnRef ref(PlanBuilder plan, int index) {
    Column column = plan.schema().column(index);
    return new ColumnRef(index, column.type(), column.nullable(), column.name());
  }

  private static Expr castIfNeeded(Expr expr, SqlType type) {
    return expr.sqlType().equals(type) ? expr : Exprs.cast(expr, type);
  }

  private static PlanBuilder append(PlanBuilder plan, List<Expr> extra) {
    if (extra.isEmpty()) {
      return plan;
    }
    List<Expr> exprs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < plan.schema().size(); i++) {
      exprs.add(ref(plan, i));
      names.add(plan.schema().column(i).name());
    }
    for (int i = 0; i < extra.size(); i++) {
      exprs.add(extra.get(i));
      names.add("$key" + i);
    }
    return plan.project(exprs, names);
  }

  /** A non-NULL value of {@code type} standing in for NULL in a null-safe key. */
  private static Expr zero(SqlType type) {
    switch (type.kind()) {
      case BOOLEAN:
        return Exprs.lit(false);
      case VARCHAR:
        return Exprs.lit("");
      case DATE:
        return new Literal(LocalDate.EPOCH, SqlType.DATE);
      case DECIMAL:
        return Exprs.cast(Exprs.lit(BigDecimal.ZERO), type);
      default:
        return Exprs.cast(Exprs.lit(0), type);
    }
  }
}
