package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * A resolved function application: the result type and the type each argument is converted to
 * before the function runs (an implicit CAST where it differs from the argument's own type).
 */
public final class Signature implements Serializable {
  private static final long serialVersionUID = 1L;

  private final SqlType result;
  private final List<SqlType> operands;

  public Signature(SqlType result, List<SqlType> operands) {
    this.result = requireNonNull(result, "result is null");
    this.operands = List.copyOf(requireNonNull(operands, "operands is null"));
  }

  public SqlType result() {
    return result;
  }

  public List<SqlType> operands() {
    return operands;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Signature
        && result.equals(((Signature) other).result)
        && operands.equals(((Signature) other).operands);
  }

  @Override
  public int hashCode() {
    return Objects.hash(result, operands);
  }

  @Override
  public String toString() {
    return operands + " -> " + result;
  }
}
