package dev.quiver.flink.compiler;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.stage.Stage;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Adds Flink operators to the output of a stage while {@link StageGraphCompiler} compiles it, for
 * tests and instrumentation: a fault injected into one task of one stage, a probe of what a stage
 * sends. What it adds must keep the stage's task count and read its output {@code forward()}, so
 * that it is chained into the stage's tasks and runs (and fails) as part of them.
 *
 * <pre>
 *   stage tasks ─► [hook's operators, chained] ─► the stage's consumers (or the result)
 * </pre>
 */
@FunctionalInterface
public interface StageOutputHook {
  /** Adds nothing. */
  StageOutputHook NONE = (stage, output) -> output;

  /** The stream the consumers of {@code stage} read instead of {@code output}. */
  DataStream<BatchRecord> apply(Stage stage, DataStream<BatchRecord> output);
}
