package dev.quiver.flink.stage;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.TaskPipeline;
import java.io.Serializable;

/**
 * The recipe of one stage's task, carried inside the Flink job: builds the task's operator pipeline
 * in the task, from the task's context, writing to the task's output.
 */
@FunctionalInterface
public interface StageTaskFactory extends Serializable {
  TaskPipeline create(OperatorContext context, BatchSink output);
}
