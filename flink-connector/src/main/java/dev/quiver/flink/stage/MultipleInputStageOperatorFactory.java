package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * Makes {@link MultipleInputStageOperator}s: Flink's n-input operators need their runtime
 * parameters at construction, so a job carries this factory (with the stage's serializable recipe)
 * rather than an operator instance.
 */
public final class MultipleInputStageOperatorFactory
    extends AbstractStreamOperatorFactory<BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final int inputs;
  private final StageTaskFactory factory;
  private final OutputSplit split;
  private final boolean streaming;

  /** The BATCH form: input selection. */
  public MultipleInputStageOperatorFactory(
      int inputs, StageTaskFactory factory, OutputSplit split) {
    this(inputs, factory, split, false);
  }

  /**
   * @param streaming whether the job is a STREAMING one, whose tasks keep the input order
   *     themselves (see {@link MultipleInputStageOperator})
   */
  public MultipleInputStageOperatorFactory(
      int inputs, StageTaskFactory factory, OutputSplit split, boolean streaming) {
    this.streaming = streaming;
    if (inputs < 2) {
      throw new IllegalArgumentException("a multiple-input stage needs >= 2 inputs: " + inputs);
    }
    this.inputs = inputs;
    this.factory = requireNonNull(factory, "factory is null");
    this.split = requireNonNull(split, "split is null");
    // A scan input's source runs in this task (no blocking partition between them).
    setChainingStrategy(ChainingStrategy.HEAD_WITH_SOURCES);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T extends StreamOperator<BatchRecord>> T createStreamOperator(
      StreamOperatorParameters<BatchRecord> parameters) {
    return (T)
        (streaming
            ? new MultipleInputStageOperator(parameters, inputs, factory, split, true)
            : new MultipleInputStageOperator.Selecting(parameters, inputs, factory, split));
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
    return streaming
        ? MultipleInputStageOperator.class
        : MultipleInputStageOperator.Selecting.class;
  }
}
