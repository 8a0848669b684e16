package dev.quiver.plan.node;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The checks plan nodes run when they are built. A plan is something a user can write (with {@link
 * PlanBuilder}), so a bad plan is a {@link QuiverException}: {@link ErrorCode#INVALID_ARGUMENT} for
 * its shape, {@link ErrorCode#SCHEMA_MISMATCH} where types disagree.
 */
final class PlanChecks {
  private PlanChecks() {}

  static QuiverException invalid(String message) {
    return new QuiverException(ErrorCode.INVALID_ARGUMENT, message);
  }

  static QuiverException mismatch(String message) {
    return new QuiverException(ErrorCode.SCHEMA_MISMATCH, message);
  }

  static void check(boolean condition, String node, String message) {
    if (!condition) {
      throw invalid(node + ": " + message);
    }
  }

  /** Checks that {@code column} is an index of {@code schema}. */
  static void checkColumn(RowSchema schema, int column, String node, String what) {
    if (column < 0 || column >= schema.size()) {
      throw invalid(
          node
              + ": "
              + what
              + " is column #"
              + column
              + ", but the input has "
              + schema.size()
              + " columns "
              + schema);
    }
  }

  static void checkSortKeys(RowSchema schema, List<SortKey> keys, String node) {
    check(!keys.isEmpty(), node, "needs at least one sort key");
    for (SortKey key : keys) {
      checkColumn(schema, key.column(), node, "sort key " + key);
    }
  }

  /**
   * Checks that every column reference of {@code expr} names a column of {@code input}, with its
   * type, and that a reference that claims NOT NULL does not read a nullable column (evaluators may
   * skip null checks on its strength).
   */
  static void checkExpr(Expr expr, RowSchema input, String node, String what) {
    // A generic walk over children() with one type test: unlike an ExprVisitor it keeps working
    // when the expression package grows new node types.
    Deque<Expr> pending = new ArrayDeque<>();
    pending.push(expr);
    while (!pending.isEmpty()) {
      Expr next = pending.pop();
      if (next instanceof ColumnRef) {
        ColumnRef ref = (ColumnRef) next;
        checkColumn(input, ref.index(), node, what + " " + expr + " reads " + ref + ", which");
        Column column = input.column(ref.index());
        if (!column.type().equals(ref.sqlType())) {
          throw mismatch(
              node
                  + ": "
                  + what
                  + " "
                  + expr
                  + " reads "
                  + ref
                  + " as "
                  + ref.sqlType()
                  + ", but input column #"
                  + ref.index()
                  + " is "
                  + column);
        }
        if (!ref.nullable() && column.nullable()) {
          throw mismatch(
              node
                  + ": "
                  + what
                  + " "
                  + expr
                  + " reads nullable column "
                  + column
                  + " as NOT NULL");
        }
      }
      for (Expr child : next.children()) {
        pending.push(child);
      }
    }
  }

  static void checkBoolean(Expr expr, String node, String what) {
    if (!expr.sqlType().equals(SqlType.BOOLEAN)) {
      throw mismatch(node + ": " + what + " " + expr + " is " + expr.sqlType() + ", not BOOLEAN");
    }
  }
}
