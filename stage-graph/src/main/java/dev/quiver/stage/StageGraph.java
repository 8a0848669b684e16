package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.StageInput;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The stages of one query in topological order: every stage's inputs come before it, ids are the
 * positions 0..n-1, and the last stage's output is the query result. Immutable and {@link
 * Serializable}. A DAG: a stage may be read by several stage inputs (a subplan computed once for
 * several consumers, see {@link SharedSubplans}). The constructor checks that every stage but the
 * last is read by at least one input of a later stage, and that every edge is consistent with its
 * mode:
 *
 * <pre>
 *   FORWARD    producer tasks == consumer tasks
 *   SHUFFLE    producer channels == consumer tasks (hash or round-robin distribution)
 *   BROADCAST  the input is one logical partition, read whole by every consumer task
 *   MERGE      one consumer task
 *   RESCALE    producer tasks >= consumer tasks
 * </pre>
 */
public final class StageGraph implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<Stage> stages;

  public StageGraph(List<Stage> stages) {
    this.stages = List.copyOf(requireNonNull(stages, "stages is null"));
    if (this.stages.isEmpty()) {
      throw new IllegalArgumentException("a stage graph has at least one stage");
    }
    for (int i = 0; i < this.stages.size(); i++) {
      Stage stage = this.stages.get(i);
      if (stage.id() != i) {
        throw new IllegalArgumentException("stage " + stage.id() + " is at position " + i);
      }
      for (StageInput input : stage.inputs()) {
        checkEdge(stage, input);
      }
    }
    // A DAG: a stage may feed several inputs (a shared subplan), but none is computed for nothing.
    for (Stage stage : this.stages.subList(0, this.stages.size() - 1)) {
      if (readers(stage.id()).isEmpty()) {
        throw new IllegalArgumentException(stage + " is read by no later stage");
      }
    }
  }

  private void checkEdge(Stage consumer, StageInput input) {
    if (input.stage() >= consumer.id()) {
      throw new IllegalArgumentException(
          consumer + " reads stage " + input.stage() + ", which does not come before it");
    }
    Stage producer = stages.get(input.stage());
    boolean ok;
    switch (input.mode()) {
      case FORWARD:
        ok = producer.tasks() == consumer.tasks();
        break;
      case SHUFFLE:
        ok =
            producer.distribution().kind() != OutputDistribution.Kind.NONE
                && producer.distribution().channels() == consumer.tasks();
        break;
      case BROADCAST:
        ok = input.partitions() == 1;
        break;
      case MERGE:
        ok = consumer.tasks() == 1;
        break;
      case RESCALE:
        ok = producer.tasks() >= consumer.tasks();
        break;
      default:
        throw new IllegalArgumentException("unknown mode " + input.mode());
    }
    if (!ok) {
      throw new IllegalArgumentException(
          consumer + " cannot read " + producer + " in mode " + input.mode());
    }
    // Reading a channelled output whole is fine for a broadcast (it reads every channel).
    if (input.mode() != InputMode.SHUFFLE
        && input.mode() != InputMode.BROADCAST
        && producer.distribution().kind() != OutputDistribution.Kind.NONE) {
      throw new IllegalArgumentException(
          producer
              + " splits its output into channels, but "
              + consumer
              + " reads it in "
              + input.mode());
    }
  }

  /** All stages, inputs before consumers; the last one is the result. */
  public List<Stage> stages() {
    return stages;
  }

  public Stage stage(int id) {
    return stages.get(id);
  }

  /** The stage whose output is the query result. */
  public Stage finalStage() {
    return stages.get(stages.size() - 1);
  }

  /** The schema of the query result. */
  public RowSchema schema() {
    return finalStage().plan().schema();
  }

  /** The ids of the stages that read stage {@code id}, ascending. */
  public List<Integer> consumers(int id) {
    List<Integer> consumers = new ArrayList<>();
    for (Stage stage : stages) {
      if (stage.inputs().stream().anyMatch(input -> input.stage() == id)) {
        consumers.add(stage.id());
      }
    }
    return consumers;
  }

  /**
   * The consumer of each stage input that reads stage {@code id}, in stage order then plan order: a
   * stage read by more than one input is shared (a consumer that reads it twice appears twice).
   */
  public List<Integer> readers(int id) {
    List<Integer> readers = new ArrayList<>();
    for (Stage stage : stages) {
      for (StageInput input : stage.inputs()) {
        if (input.stage() == id) {
          readers.add(stage.id());
        }
      }
    }
    return readers;
  }

  /** Whether more than one stage input reads stage {@code id}. */
  public boolean isShared(int id) {
    return readers(id).size() > 1;
  }

  /** The canonical EXPLAIN text (see {@link StageExplain}). */
  public String explain() {
    return StageExplain.text(this);
  }

  /** The EXPLAIN text with {@code notes} under each stage's header (see {@link StageExplain}). */
  public String explain(Function<Stage, List<String>> notes) {
    return StageExplain.text(this, notes);
  }

  /** The Graphviz DOT rendering (see {@link StageExplain#dot}). */
  public String toDot() {
    return StageExplain.dot(this);
  }

  @Override
  public String toString() {
    return explain();
  }
}
