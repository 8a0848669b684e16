package dev.quiver.plan.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.Objects;

/**
 * {@code input [NOT] LIKE 'pattern' [ESCAPE 'c']}: {@code %} matches any run of characters, {@code
 * _} exactly one character, and the escape character makes the next {@code %}, {@code _} or escape
 * character literal. Matching is case-sensitive, by characters (not bytes). The pattern is a
 * constant, checked here: an escape character must be followed by one of those three.
 */
public final class Like implements Expr {
  private static final long serialVersionUID = 1L;

  private final Expr input;
  private final String pattern;
  private final Character escape;
  private final boolean negated;

  /** {@code escape} may be null (no escape character). */
  public Like(Expr input, String pattern, Character escape, boolean negated) {
    this.input = requireNonNull(input, "input is null");
    this.pattern = requireNonNull(pattern, "pattern is null");
    this.escape = escape;
    this.negated = negated;
    if (input.sqlType().kind() != SqlType.Kind.VARCHAR) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          "LIKE needs a VARCHAR, not " + input.sqlType() + ": " + input);
    }
    checkEscapes();
  }

  public Expr input() {
    return input;
  }

  public String pattern() {
    return pattern;
  }

  /** The escape character, or null. */
  public Character escape() {
    return escape;
  }

  public boolean negated() {
    return negated;
  }

  private void checkEscapes() {
    if (escape == null) {
      return;
    }
    for (int i = 0; i < pattern.length(); i++) {
      if (pattern.charAt(i) != escape) {
        continue;
      }
      char next = i + 1 < pattern.length() ? pattern.charAt(i + 1) : 0;
      if (i + 1 == pattern.length() || next != '%' && next != '_' && next != escape) {
        throw new QuiverException(
            ErrorCode.INVALID_ARGUMENT,
            "LIKE pattern "
                + LiteralText.quote(pattern)
                + " has escape character '"
                + escape
                + "' at position "
                + (i + 1)
                + " not followed by %, _ or itself");
      }
      i++;
    }
  }

  @Override
  public SqlType sqlType() {
    return SqlType.BOOLEAN;
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
    return visitor.visitLike(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Like
        && input.equals(((Like) other).input)
        && pattern.equals(((Like) other).pattern)
        && Objects.equals(escape, ((Like) other).escape)
        && negated == ((Like) other).negated;
  }

  @Override
  public int hashCode() {
    return Objects.hash(input, pattern, escape, negated);
  }

  @Override
  public String toString() {
    return input
        + (negated ? " NOT LIKE " : " LIKE ")
        + LiteralText.quote(pattern)
        + (escape == null ? "" : " ESCAPE " + LiteralText.quote(String.valueOf(escape)));
  }
}
