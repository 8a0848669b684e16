package dev.quiver.plan.join;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Which rows a join emits and with which columns.
 *
 * <p><b>Sides.</b> Quiver's joins have two inputs: input 0, the <em>build</em> side (read
 * completely first, held in memory), and input 1, the <em>probe</em> side (streamed). In this enum
 * <b>left means the probe input (1) and right means the build input (0)</b>: a LEFT join preserves
 * every probe row, a RIGHT join every build row. A planner that wants to build on the SQL left
 * table uses {@link #swap()} and reorders the columns afterwards.
 *
 * <pre>
 *   build (input 0) = right ──┐
 *                             ├─► join ─► [left (probe) columns][right (build) columns]
 *   probe (input 1) = left  ──┘
 * </pre>
 *
 * <p><b>Matching.</b> Two rows match when their equi keys are equal under SQL equality (a NULL key
 * never matches) and the optional residual condition is TRUE for the pair (FALSE and NULL reject).
 *
 * <p><b>Output schema</b> ({@link #outputSchema}): the left columns followed by the right columns
 * for INNER, LEFT, RIGHT and FULL (the side padded with NULLs becomes nullable); only the left
 * columns for LEFT_SEMI and LEFT_ANTI; only the right columns for RIGHT_SEMI and RIGHT_ANTI; the
 * left columns plus one nullable boolean {@value #MARK_COLUMN} column for LEFT_MARK. Column names
 * are kept as they are; the planner makes them unique where it needs to.
 *
 * <p><b>Null-aware</b> joins ({@link #supportsNullAware()}: LEFT_ANTI and LEFT_MARK, one key
 * column) follow the three-valued logic of {@code x NOT IN (subquery)} and {@code x IN (subquery)}
 * where the subquery is the right side. For a left row whose key has no match:
 *
 * <ul>
 *   <li>the right side is empty: IN is FALSE (NOT IN keeps the row), whatever the key;
 *   <li>the left key is NULL, or the right side has a NULL key: IN is NULL (NOT IN drops the row);
 *   <li>otherwise IN is FALSE (NOT IN keeps the row).
 * </ul>
 *
 * A matched left row has IN TRUE. Without null-awareness LEFT_MARK is two-valued (EXISTS: TRUE if
 * matched, else FALSE) and LEFT_ANTI keeps every unmatched left row (NOT EXISTS).
 */
public enum JoinType {
  /** Matching pairs. */
  INNER,
  /** Matching pairs, plus each unmatched left (probe) row with NULL right columns. */
  LEFT,
  /** Matching pairs, plus each unmatched right (build) row with NULL left columns. */
  RIGHT,
  /** Matching pairs, plus the unmatched rows of both sides padded with NULLs. */
  FULL,
  /** Each left row that has at least one match, once. */
  LEFT_SEMI,
  /** Each left row without a match (null-aware: NOT IN, see the class comment). */
  LEFT_ANTI,
  /** Each right row that has at least one match, once. */
  RIGHT_SEMI,
  /** Each right row without a match. */
  RIGHT_ANTI,
  /** Every left row once, with a boolean {@value #MARK_COLUMN} saying whether it matched. */
  LEFT_MARK;

  /** The name of the boolean column a {@link #LEFT_MARK} join appends. */
  public static final String MARK_COLUMN = "mark";

  /** Whether the output has the left (probe) columns. */
  public boolean emitsLeft() {
    return this != RIGHT_SEMI && this != RIGHT_ANTI;
  }

  /** Whether the output has the right (build) columns. */
  public boolean emitsRight() {
    return this == INNER || this == LEFT || this == RIGHT || this == FULL || isRightSemiOrAnti();
  }

  /** Whether matching pairs are emitted as combined rows (INNER, LEFT, RIGHT, FULL). */
  public boolean emitsPairs() {
    return this == INNER || this == LEFT || this == RIGHT || this == FULL;
  }

  /** Whether unmatched left rows are emitted with NULL right columns (LEFT, FULL). */
  public boolean padsLeft() {
    return this == LEFT || this == FULL;
  }

  /** Whether unmatched right rows are emitted with NULL left columns (RIGHT, FULL). */
  public boolean padsRight() {
    return this == RIGHT || this == FULL;
  }

  /**
   * Whether the join must remember which right (build) rows matched, to emit rows of the right side
   * once every left row was seen.
   */
  public boolean tracksRightMatches() {
    return padsRight() || isRightSemiOrAnti();
  }

  /** Whether this is LEFT_SEMI or LEFT_ANTI. */
  public boolean isLeftSemiOrAnti() {
    return this == LEFT_SEMI || this == LEFT_ANTI;
  }

  /** Whether this is RIGHT_SEMI or RIGHT_ANTI. */
  public boolean isRightSemiOrAnti() {
    return this == RIGHT_SEMI || this == RIGHT_ANTI;
  }

  /** Whether the null-aware (NOT IN / IN) semantics of the class comment apply to this type. */
  public boolean supportsNullAware() {
    return this == LEFT_ANTI || this == LEFT_MARK;
  }

  /**
   * The same join with the inputs exchanged: LEFT ↔ RIGHT, LEFT_SEMI ↔ RIGHT_SEMI, LEFT_ANTI ↔
   * RIGHT_ANTI; INNER and FULL stay. LEFT_MARK has no mirror and fails.
   */
  public JoinType swap() {
    switch (this) {
      case LEFT:
        return RIGHT;
      case RIGHT:
        return LEFT;
      case LEFT_SEMI:
        return RIGHT_SEMI;
      case RIGHT_SEMI:
        return LEFT_SEMI;
      case LEFT_ANTI:
        return RIGHT_ANTI;
      case RIGHT_ANTI:
        return LEFT_ANTI;
      case LEFT_MARK:
        throw new IllegalStateException("LEFT_MARK has no mirror type: keep the marked side left");
      default:
        return this;
    }
  }

  /** The output schema of this join over the given left (probe) and right (build) schemas. */
  public Schema outputSchema(Schema left, Schema right) {
    requireNonNull(left, "left is null");
    requireNonNull(right, "right is null");
    List<Field> fields = new ArrayList<>();
    if (emitsLeft()) {
      addAll(fields, left, padsRight());
    }
    if (emitsRight()) {
      addAll(fields, right, padsLeft());
    }
    if (this == LEFT_MARK) {
      fields.add(new Field(MARK_COLUMN, FieldType.nullable(ArrowType.Bool.INSTANCE), null));
    }
    return new Schema(fields);
  }

  private static void addAll(List<Field> fields, Schema schema, boolean nullable) {
    for (Field field : schema.getFields()) {
      fields.add(nullable ? nullable(field) : field);
    }
  }

  private static Field nullable(Field field) {
    if (field.isNullable()) {
      return field;
    }
    FieldType type =
        new FieldType(true, field.getType(), field.getDictionary(), field.getMetadata());
    return new Field(field.getName(), type, field.getChildren());
  }
}
