package dev.quiver.plan.changelog;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * What a row of an updating result (a changelog) does to the result: Flink's row kinds, with
 * Flink's byte codes and the symbols its SQL client prints.
 *
 * <pre>
 *   +I  INSERT         a new row                           0
 *   -U  UPDATE_BEFORE  the old row of an update: retract   1
 *   +U  UPDATE_AFTER   the new row of an update            2
 *   -D  DELETE         a row removed                       3
 * </pre>
 *
 * Inside a plan, the row kind of an updating result is its last column, {@link #FIELD} ({@code op},
 * TINYINT NOT NULL, these codes): a non-windowed aggregate over a stream appends it, and the
 * filters and projections above it carry it through unchanged. Under retract semantics +I and +U
 * add their row, -U and -D remove theirs, so a filter or a projection applied to each row of a
 * changelog on its own is the changelog of the filtered or projected result.
 */
public enum RowKind {
  INSERT("+I"),
  UPDATE_BEFORE("-U"),
  UPDATE_AFTER("+U"),
  DELETE("-D");

  /** The column name of the row kind. */
  public static final String COLUMN = "op";

  /** The row kind column: {@code op TINYINT NOT NULL}, holding {@link #code()}. */
  public static final Field FIELD =
      new Field(COLUMN, FieldType.notNullable(new ArrowType.Int(8, true)), null);

  private static final RowKind[] BY_CODE = values();

  private final String symbol;

  RowKind(String symbol) {
    this.symbol = symbol;
  }

  /** The byte stored in the {@code op} column (Flink's {@code RowKind.toByteValue()}). */
  public byte code() {
    return (byte) ordinal();
  }

  /** {@code +I}, {@code -U}, {@code +U} or {@code -D}. */
  public String symbol() {
    return symbol;
  }

  /** Whether the row is added to the result (+I, +U) rather than removed from it (-U, -D). */
  public boolean adds() {
    return this == INSERT || this == UPDATE_AFTER;
  }

  /** The row kind of {@code code}. */
  public static RowKind ofCode(byte code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("not a row kind code: " + code);
    }
    return BY_CODE[code];
  }
}
