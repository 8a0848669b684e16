package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import java.util.Arrays;
import java.util.List;

/**
 * A placeholder leaf of a stage plan: "read the output of stage {@link #stage()} here, in {@link
 * #mode()}". It is not an operator; the compiler replaces it with the stage's input edge. It
 * carries what the consumer sees: the schema, the partitioning (for SHUFFLE the producer's hash
 * keys and channel count) and the ordering (for MERGE the merge keys, which the consumer's k-way
 * merge needs).
 */
public final class StageInput extends LeafNode {
  private static final long serialVersionUID = 1L;

  private final int stage;
  private final InputMode mode;

  public StageInput(
      int stage,
      InputMode mode,
      RowSchema schema,
      Partitioning partitioning,
      List<SortKey> ordering) {
    super(schema, partitioning, ordering);
    if (stage < 0) {
      throw new IllegalArgumentException("stage id is negative: " + stage);
    }
    this.stage = stage;
    this.mode = requireNonNull(mode, "mode is null");
  }

  /** The producer stage's id. */
  public int stage() {
    return stage;
  }

  public InputMode mode() {
    return mode;
  }

  /** {@code node} as a stage input, or null when it is another kind of node. */
  public static StageInput as(PlanNode node) {
    return node.accept(
        new DefaultPlanVisitor<StageInput>() {
          @Override
          protected StageInput visitDefault(PlanNode other) {
            return null;
          }

          @Override
          public StageInput visitStageInput(StageInput input) {
            return input;
          }
        });
  }

  /** The same input read in another mode (a one-partition input read by every task: BROADCAST). */
  public StageInput withMode(InputMode newMode) {
    return new StageInput(stage, newMode, schema(), partitioning(), ordering());
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(stage, mode);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitStageInput(this);
  }

  /** {@code StageInput[stage=0, SHUFFLE]}, with the merge keys for MERGE. */
  @Override
  public String toString() {
    return "StageInput[stage="
        + stage
        + ", "
        + mode
        + (mode == InputMode.MERGE ? ", " + Sort.keys(ordering()) : "")
        + "]";
  }
}
