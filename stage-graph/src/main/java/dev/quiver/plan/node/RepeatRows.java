package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Emits every input row as many times as its BIGINT {@code times} column says, without that column:
 * a row with times = 3 becomes three equal rows, one with times NULL, 0 or less disappears. This is
 * the last step of INTERSECT ALL and EXCEPT ALL, which count each distinct row per side and then
 * emit it min(left, right) or left - right times.
 *
 * <pre>
 *   a  b  times          a  b
 *   1  x    2     ─►     1  x
 *   2  y    0            1  x
 *   3  z    1            3  z
 * </pre>
 *
 * The copies of a row are adjacent and rows keep their input order, so partitioning and ordering
 * pass through, renumbered, unless they use the times column.
 */
public final class RepeatRows extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final int times;

  public RepeatRows(PlanNode input, int times) {
    super(
        List.of(requireNonNull(input, "input is null")),
        schema(input, times),
        input.partitioning().remap(newIndex(input, times)),
        ordering(input, times));
    this.times = times;
  }

  private static RowSchema schema(PlanNode input, int times) {
    PlanChecks.checkColumn(input.schema(), times, "RepeatRows", "the times column");
    Column column = input.schema().column(times);
    if (!column.type().equals(SqlType.BIGINT)) {
      throw PlanChecks.mismatch(
          "RepeatRows: the times column " + column + " must be BIGINT; cast it");
    }
    List<Column> columns = new ArrayList<>(input.schema().columns());
    columns.remove(times);
    return new RowSchema(columns);
  }

  /** Input column c is output column c, or c - 1 after the times column, which is gone (-1). */
  private static int[] newIndex(PlanNode input, int times) {
    int[] newIndex = new int[input.schema().size()];
    for (int c = 0; c < newIndex.length; c++) {
      newIndex[c] = c < times ? c : c == times ? -1 : c - 1;
    }
    return newIndex;
  }

  /** The input's sort keys up to the first on the times column, renumbered. */
  private static List<SortKey> ordering(PlanNode input, int times) {
    List<SortKey> ordering = new ArrayList<>();
    for (SortKey key : input.ordering()) {
      if (key.column() == times) {
        break;
      }
      int column = key.column() < times ? key.column() : key.column() - 1;
      ordering.add(new SortKey(column, key.ascending(), key.nullsFirst()));
    }
    return ordering;
  }

  public PlanNode input() {
    return child(0);
  }

  /** The input column that says how many times each row is emitted. */
  public int times() {
    return times;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(times);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitRepeatRows(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new RepeatRows(children.get(0), times);
  }

  /** {@code RepeatRows[times=#2]}. */
  @Override
  public String toString() {
    return "RepeatRows[times=#" + times + "]";
  }
}
