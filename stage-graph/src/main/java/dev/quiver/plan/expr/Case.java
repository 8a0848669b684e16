package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.type.TypeRules;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Searched CASE: {@code CASE WHEN c1 THEN r1 ... [ELSE e] END}. The first condition that is TRUE
 * picks its result; none (FALSE or NULL conditions) picks ELSE, or NULL without one. The type is
 * the {@linkplain TypeRules#commonType common type} of all results, to which each converts. A
 * simple CASE ({@code CASE x WHEN v ...}) is written as a searched one with {@code x = v}.
 */
public final class Case implements Expr {
  private static final long serialVersionUID = 1L;

  /** One {@code WHEN condition THEN result} branch. */
  public static final class When implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Expr condition;
    private final Expr result;

    public When(Expr condition, Expr result) {
      this.condition = requireNonNull(condition, "condition is null");
      this.result = requireNonNull(result, "result is null");
      if (!condition.sqlType().equals(SqlType.BOOLEAN)) {
        throw new QuiverException(
            ErrorCode.UNSUPPORTED_TYPE,
            "a CASE condition must be BOOLEAN, not " + condition.sqlType() + ": " + condition);
      }
    }

    public Expr condition() {
      return condition;
    }

    public Expr result() {
      return result;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof When
          && condition.equals(((When) other).condition)
          && result.equals(((When) other).result);
    }

    @Override
    public int hashCode() {
      return Objects.hash(condition, result);
    }

    @Override
    public String toString() {
      return "WHEN " + condition + " THEN " + result;
    }
  }

  private final List<When> whens;
  private final Expr elseResult; // null: ELSE NULL
  private final SqlType type;

  /** {@code elseResult} may be null (ELSE NULL). */
  public Case(List<When> whens, Expr elseResult) {
    this.whens = List.copyOf(requireNonNull(whens, "whens is null"));
    if (this.whens.isEmpty()) {
      throw new IllegalArgumentException("CASE needs at least one WHEN");
    }
    SqlType common = this.whens.get(0).result().sqlType();
    List<Expr> results = new ArrayList<>();
    for (When when : this.whens) {
      results.add(when.result());
    }
    if (elseResult != null) {
      results.add(elseResult);
    }
    for (Expr result : results) {
      SqlType next = TypeRules.commonType(common, result.sqlType());
      if (next == null) {
        throw new QuiverException(
            ErrorCode.UNSUPPORTED_TYPE,
            "CASE results of types "
                + common
                + " and "
                + result.sqlType()
                + " do not mix: "
                + result);
      }
      common = next;
    }
    this.type = common;
    boolean nullElse = elseResult instanceof Literal && ((Literal) elseResult).isNull();
    this.elseResult = nullElse ? null : elseResult;
  }

  public List<When> whens() {
    return whens;
  }

  /** The ELSE result, or null when there is none (the result is then NULL). */
  public Expr elseResult() {
    return elseResult;
  }

  @Override
  public SqlType sqlType() {
    return type;
  }

  @Override
  public boolean nullable() {
    return elseResult == null
        || elseResult.nullable()
        || whens.stream().anyMatch(when -> when.result().nullable());
  }

  @Override
  public List<Expr> children() {
    List<Expr> children = new ArrayList<>();
    for (When when : whens) {
      children.add(when.condition());
      children.add(when.result());
    }
    if (elseResult != null) {
      children.add(elseResult);
    }
    return children;
  }

  @Override
  public <R> R accept(ExprVisitor<R> visitor) {
    return visitor.visitCase(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Case
        && whens.equals(((Case) other).whens)
        && Objects.equals(elseResult, ((Case) other).elseResult)
        && type.equals(((Case) other).type);
  }

  @Override
  public int hashCode() {
    return Objects.hash(whens, elseResult, type);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("CASE");
    for (When when : whens) {
      text.append(' ').append(when);
    }
    if (elseResult != null) {
      text.append(" ELSE ").append(elseResult);
    }
    return text.append(" END").toString();
  }
}
