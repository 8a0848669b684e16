package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.Objects;

/**
 * A call of a library function by name: {@code lpad(#3, 10, '*')}, {@code date_trunc('month', #1)}.
 * The functions themselves (accepted types, result type, kernel) are declared once, in the
 * operators module's function registry, which resolves the {@link Signature} and builds the call;
 * this node is the call as plan data: it travels in jobs, prints in EXPLAIN and compares by value.
 *
 * <p>The core SQL operators (arithmetic, comparisons, logic, CASE, CAST, LIKE) are {@link Call}s
 * and other nodes, not library functions.
 */
public final class FunctionCall implements Expr {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final List<Expr> args;
  private final Signature signature;
  private final boolean nullable;

  /**
   * A call whose signature the registry resolved; {@code name} is the function's canonical
   * lower-case name. Each argument must convert to its operand type.
   */
  public FunctionCall(String name, List<Expr> args, Signature signature, boolean nullable) {
    this.name = requireNonNull(name, "name is null");
    this.args = List.copyOf(requireNonNull(args, "args is null"));
    this.signature = requireNonNull(signature, "signature is null");
    this.nullable = nullable;
    if (signature.operands().size() != this.args.size()) {
      throw new IllegalArgumentException(
          name + ": " + this.args.size() + " arguments but signature " + signature);
    }
    for (int i = 0; i < this.args.size(); i++) {
      SqlType from = this.args.get(i).sqlType();
      if (!Casts.canCast(from, signature.operands().get(i))) {
        throw new IllegalArgumentException(
            name + ": argument " + (i + 1) + " of type " + from + " cannot become " + signature);
      }
    }
  }

  /** The function's canonical name, lower case. */
  public String name() {
    return name;
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
    return visitor.visitFunction(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FunctionCall
        && name.equals(((FunctionCall) other).name)
        && args.equals(((FunctionCall) other).args)
        && signature.equals(((FunctionCall) other).signature)
        && nullable == ((FunctionCall) other).nullable;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, args);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(name).append('(');
    for (int i = 0; i < args.size(); i++) {
      text.append(i == 0 ? "" : ", ").append(args.get(i));
    }
    return text.append(')').toString();
  }
}
