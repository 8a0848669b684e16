package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.Objects;

/**
 * A {@link ScalarFunction} applied to arguments. The {@link Signature} (result type and the type
 * each argument converts to) is resolved when the call is built, so an ill-typed call never exists.
 */
public final class Call implements Expr {
  private static final long serialVersionUID = 1L;

  private final ScalarFunction function;
  private final List<Expr> args;
  private final Signature signature;
  private final boolean nullable;

  public Call(ScalarFunction function, List<Expr> args) {
    this.function = requireNonNull(function, "function is null");
    this.args = List.copyOf(requireNonNull(args, "args is null"));
    this.signature = Signatures.resolve(function, this.args);
    this.nullable = deriveNullable();
  }

  public ScalarFunction function() {
    return function;
  }

  public List<Expr> args() {
    return args;
  }

  public Expr arg(int index) {
    return args.get(index);
  }

  /** The result type and the type each argument is converted to. */
  public Signature signature() {
    return signature;
  }

  @Override
  public SqlType sqlType() {
    return signature.result();
  }

  @Override
  public boolean nullable() {
    return nullable;
  }

  @Override
  public List<Expr> children() {
    return args;
  }

  @Override
  public <R> R accept(ExprVisitor<R> visitor) {
    return visitor.visitCall(this);
  }

  private boolean deriveNullable() {
    switch (function) {
      case IS_NULL:
      case IS_NOT_NULL:
        return false;
      case NULLIF:
        return true;
      case COALESCE:
        return args.stream().allMatch(Expr::nullable);
      default:
        return args.stream().anyMatch(Expr::nullable);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Call
        && function == ((Call) other).function
        && args.equals(((Call) other).args);
  }

  @Override
  public int hashCode() {
    return Objects.hash(function, args);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    switch (function.form()) {
      case INFIX:
        text.append('(');
        for (int i = 0; i < args.size(); i++) {
          text.append(i == 0 ? "" : " " + function.symbol() + " ").append(args.get(i));
        }
        return text.append(')').toString();
      case PREFIX:
        return "(" + function.symbol() + " " + args.get(0) + ")";
      case POSTFIX:
        return "(" + args.get(0) + " " + function.symbol() + ")";
      case FUNCTION:
        text.append(function.symbol()).append('(');
        for (int i = 0; i < args.size(); i++) {
          text.append(i == 0 ? "" : ", ").append(args.get(i));
        }
        return text.append(')').toString();
      default:
        return special();
    }
  }

  private String special() {
    switch (function) {
      case BETWEEN:
        return "(" + args.get(0) + " BETWEEN " + args.get(1) + " AND " + args.get(2) + ")";
      case SUBSTRING:
        return "SUBSTRING("
            + args.get(0)
            + " FROM "
            + args.get(1)
            + (args.size() > 2 ? " FOR " + args.get(2) : "")
            + ")";
      case TRIM_BOTH:
      case TRIM_LEADING:
      case TRIM_TRAILING:
        return "TRIM("
            + function.symbol()
            + " "
            + (args.size() > 1 ? args.get(1) : "' '")
            + " FROM "
            + args.get(0)
            + ")";
      case EXTRACT_YEAR:
      case EXTRACT_MONTH:
      case EXTRACT_DAY:
        return "EXTRACT(" + function.symbol() + " FROM " + args.get(0) + ")";
      default:
        throw new IllegalStateException("no special form for " + function);
    }
  }
}
