package dev.quiver.plan.join;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * A {@link JoinType} plus whether it is null-aware (the {@code NOT IN} / {@code IN} semantics
 * described on {@link JoinType}); what a join plan node carries and a join operator executes.
 * Immutable, prints as {@code LEFT_ANTI} or {@code LEFT_ANTI(null-aware)}.
 *
 * @param type which rows the join emits; left is the probe input, right the build input
 * @param nullAware three-valued IN semantics; only for types where {@link
 *     JoinType#supportsNullAware()} holds
 */
public record JoinKind(JoinType type, boolean nullAware) implements Serializable {
  public JoinKind {
    requireNonNull(type, "type is null");
    if (nullAware && !type.supportsNullAware()) {
      throw new IllegalArgumentException(
          "only LEFT_ANTI and LEFT_MARK joins can be null-aware, not " + type);
    }
  }

  /** The plain (not null-aware) join of {@code type}. */
  public static JoinKind of(JoinType type) {
    return new JoinKind(type, false);
  }

  /** The null-aware join of {@code type} (LEFT_ANTI for NOT IN, LEFT_MARK for IN). */
  public static JoinKind nullAware(JoinType type) {
    return new JoinKind(type, true);
  }

  @Override
  public String toString() {
    return nullAware ? type + "(null-aware)" : type.toString();
  }
}
