package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * UNION ALL of inputs with the same column types and the same partition count: task p passes on
 * partition p of every input. Names come from the first input; a column is nullable when it is in
 * any input. The partitioning is the inputs' when they all agree, else unknown.
 *
 * <p>The node may be built over inputs of different partition counts (a single-node plan); it then
 * has the largest count, the pass that enforces distributions ({@code
 * dev.quiver.plan.distribute.EnforceDistribution}) spreads the other inputs round-robin to it, and
 * the stage cutter refuses it otherwise ({@link #checkInputsDistributed}).
 */
public final class Union extends PlanNode {
  private static final long serialVersionUID = 1L;

  public Union(List<PlanNode> inputs) {
    super(inputs, schema(inputs), partitioning(inputs), List.of());
  }

  private static RowSchema schema(List<PlanNode> inputs) {
    requireNonNull(inputs, "inputs is null");
    PlanChecks.check(!inputs.isEmpty(), "Union", "needs at least one input");
    RowSchema first = requireNonNull(inputs.get(0), "input is null").schema();
    List<Column> columns = new ArrayList<>(first.columns());
    for (int i = 1; i < inputs.size(); i++) {
      RowSchema other = requireNonNull(inputs.get(i), "input is null").schema();
      PlanChecks.check(
          other.size() == first.size(),
          "Union",
          "input " + i + " has " + other.size() + " columns, input 0 has " + first.size());
      for (int c = 0; c < columns.size(); c++) {
        if (!other.column(c).type().equals(first.column(c).type())) {
          throw PlanChecks.mismatch(
              "Union: column #"
                  + c
                  + " is "
                  + first.column(c)
                  + " in input 0 but "
                  + other.column(c)
                  + " in input "
                  + i
                  + "; cast one of them");
        }
        if (other.column(c).nullable()) {
          columns.set(c, columns.get(c).asNullable());
        }
      }
    }
    return new RowSchema(columns);
  }

  private static Partitioning partitioning(List<PlanNode> inputs) {
    Partitioning first = inputs.get(0).partitioning();
    boolean same = true;
    int count = first.count();
    for (int i = 1; i < inputs.size(); i++) {
      Partitioning other = inputs.get(i).partitioning();
      count = Math.max(count, other.count());
      same &= other.equals(first);
    }
    return same ? first : Partitioning.unknown(count);
  }

  /** Whether every input has the union's partition count. */
  public boolean inputsDistributed() {
    return inputs().stream().allMatch(input -> input.partitions() == partitions());
  }

  /** Fails unless {@link #inputsDistributed()}; the stage cutter calls this. */
  public void checkInputsDistributed() {
    List<PlanNode> inputs = inputs();
    for (int i = 1; i < inputs.size(); i++) {
      PlanChecks.check(
          inputs.get(i).partitions() == inputs.get(0).partitions(),
          "Union",
          "input "
              + i
              + " has "
              + inputs.get(i).partitions()
              + " partitions, input 0 has "
              + inputs.get(0).partitions()
              + "; repartition the inputs to one count");
    }
  }

  public List<PlanNode> inputs() {
    return children();
  }

  @Override
  protected List<Object> fields() {
    return List.of();
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitUnion(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Union(children);
  }

  /** {@code Union[inputs=3]}. */
  @Override
  public String toString() {
    return "Union[inputs=" + children().size() + "]";
  }
}
