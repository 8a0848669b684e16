package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.Objects;

/**
 * {@code CAST(input AS target)}. Which conversions exist is {@link Casts#canCast}; how values
 * convert (rounding, overflow, string formats) is documented by the operators' cast kernels.
 */
public final class Cast implements Expr {
  private static final long serialVersionUID = 1L;

  private final Expr input;
  private final SqlType target;

  public Cast(Expr input, SqlType target) {
    this.input = requireNonNull(input, "input is null");
    this.target = requireNonNull(target, "target is null");
    if (!Casts.canCast(input.sqlType(), target)) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          "cannot cast " + input.sqlType() + " to " + target + ": " + input);
    }
  }

  public Expr input() {
    return input;
  }

  @Override
  public SqlType sqlType() {
    return target;
  }

  @Override
  public boolean nullable() {
    return input.nullable();
  }

  @Override
  public List<Expr> children() {
    return List.of(input);
  }

  @Override
  public <R> R accept(ExprVisitor<R> visitor) {
    return visitor.visitCast(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Cast
        && input.equals(((Cast) other).input)
        && target.equals(((Cast) other).target);
  }

  @Override
  public int hashCode() {
    return Objects.hash(input, target);
  }

  @Override
  public String toString() {
    return "CAST(" + input + " AS " + target + ")";
  }
}
