package dev.quiver.plan.expr;

import dev.quiver.plan.type.SqlType;
import java.io.Serializable;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A scalar SQL expression as immutable data: it travels inside Flink jobs (hence {@link
 * Serializable}) and is compiled into vectorized evaluators by the operators module.
 *
 * <p>Every expression knows its result type and whether it can be NULL, has value equality, prints
 * itself in one line for EXPLAIN (e.g. {@code (#5 * (1 - #6))}) and is dispatched with an {@link
 * ExprVisitor}. Types are derived when a node is built ({@link Signatures}, {@link
 * dev.quiver.plan.type.TypeRules}); a node whose operands do not fit its function fails right there
 * with a {@link dev.quiver.error.QuiverException}. Build expressions with {@link Exprs}.
 */
public interface Expr extends Serializable {
  /** The SQL result type. */
  SqlType sqlType();

  /** The Arrow type of the result. */
  default ArrowType type() {
    return sqlType().arrow();
  }

  /** Whether the result can be NULL. */
  boolean nullable();

  /** The direct sub-expressions, in evaluation order. */
  List<Expr> children();

  <R> R accept(ExprVisitor<R> visitor);

  /** The expression in one line of SQL-like text, as EXPLAIN and error messages show it. */
  @Override
  String toString();
}
