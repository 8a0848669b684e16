package dev.quiver.flink.stage;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.TaskPipeline;
import java.io.Serializable;
import java.util.Set;

/**
 * The recipe of one stage's task, carried inside the Flink job: builds the task's operator pipeline
 * in the task, from the task's context, writing to the task's output.
 */
@FunctionalInterface
public interface StageTaskFactory extends Serializable {
  /**
   * The {@link #memoryBudget()} that means: the task's share of its slot's Flink managed memory,
   * for the operator scope use its Flink operator declared ({@code
   * Transformation.declareManagedMemoryUseCaseAtOperatorScope}); no limit when it declared none.
   */
  long MANAGED_MEMORY = -1;

  TaskPipeline create(OperatorContext context, BatchSink output);

  /**
   * The bytes of Arrow memory each task's operators may hold (see {@code MemoryBudget}); beyond it
   * they spill (sorts, aggregations) or fail with MEMORY_BUDGET_EXCEEDED. {@link #MANAGED_MEMORY}
   * (the default) derives it from Flink's managed memory ({@link TaskMemory}).
   */
  default long memoryBudget() {
    return MANAGED_MEMORY;
  }

  /**
   * The stage inputs that never end (they read a stream, directly or through other stages): in a
   * STREAMING job their batches are not held back for the pipeline's input order and not logged for
   * checkpoints — what they bring is in the stateful operators' snapshots ({@link OrderedInputs}),
   * and no VALUES of the pipeline waits for their end ({@code TaskPipeline.neverEnds}). Empty (the
   * default) for stages of bounded inputs only.
   */
  default Set<Integer> unboundedInputs() {
    return Set.of();
  }

  /**
   * Whether the rows of bounded stage input {@code input} stay in the task (a join's build side, an
   * aggregate's groups): a STREAMING task logs such an input's batches for its checkpoints and
   * replays them into a restored pipeline. The rows of the other bounded inputs pass straight
   * through to the task's output, which a restore must not send again: it only learns whether the
   * input had ended ({@link OrderedInputs}). True (the default) for every input: replaying an input
   * whose rows passed through costs checkpoint space, never rows, since a restored task drops what
   * its replay emits.
   */
  default boolean keepsRows(int input) {
    return true;
  }

  /**
   * Whether the rows of the pipeline's source (VALUES) number {@code source} (depth first, as
   * {@code TaskPipeline} runs them) stay in the task (a join's VALUES build side): a restored
   * STREAMING task runs such a source again, its output dropped, to rebuild what it fed, and skips
   * the others, whose rows went downstream before the checkpoint or are in a restored operator's
   * state (an updating aggregate's groups). True (the default) for every source.
   */
  default boolean keepsSourceRows(int source) {
    return true;
  }

  /** The id of the stage whose tasks this builds (for task statistics), or -1 when none. */
  default int stageId() {
    return -1;
  }
}
