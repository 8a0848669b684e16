package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;
import static java.util.stream.Collectors.joining;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.flink.stage.MultipleInputStageOperatorFactory;
import dev.quiver.flink.stage.OneInputStageOperator;
import dev.quiver.flink.stage.SourceStageOperator;
import dev.quiver.flink.stage.StageTaskFactory;
import dev.quiver.flink.stage.StreamingTwoInputStageOperator;
import dev.quiver.flink.stage.TwoInputStageOperator;
import dev.quiver.operators.exec.PlanPipelines;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.StageInput;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.MultipleInputTransformation;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;

/**
 * Compiles a {@link StageGraph} into one Flink job (DataStream API, meant for BATCH mode): every
 * stage becomes one Flink operator with one parallel task per stage task, every edge the Flink
 * partitioning of its input mode ({@link StageEdges}), and the final stage's output is the returned
 * stream, for {@link JobRunner} or any Flink sink.
 *
 * <pre>
 *   Stage 0 (3 tasks, hash) ─partitionCustom─┐
 *                                            ├─► Stage 2 (4 tasks) ─► returned stream
 *   Stage 1 (2 tasks)       ────broadcast────┘
 * </pre>
 *
 * <p>A stage's Flink inputs are its pipeline's stage inputs ({@link PlanPipelines#inputs}: stage
 * inputs and scans, depth first), read in the pipeline's input order: one input runs in a {@link
 * OneInputStageOperator}, two in a {@link TwoInputStageOperator}, more in a multiple-input operator
 * ({@link MultipleInputStageOperatorFactory}). A stage without any (its leaves are all VALUES) is
 * driven by a one-element-per-task trigger stream into a {@link SourceStageOperator}; the VALUES
 * rows themselves run inside the task's pipeline. Scans come from the {@link ScanSourceFactory}.
 * Each edge's type is {@code BatchTypeInfo.of(producer schema, compression, "stage p → stage c")}.
 *
 * <p>A shared stage (several stage inputs read it, see {@code StageGraph#isShared}) is one Flink
 * operator whose output stream feeds each reader's edge. Its readers are never chained to it (a
 * FORWARD reader starts a new chain), so in BATCH mode its output is a blocking result partition
 * written once; readers with the same partitioner and task count read the same partition (Flink
 * reuses the intermediate data set), the others get their own.
 *
 * <pre>
 *   Stage 3 (shared) ─┬─forward (new chain)─► Stage 5
 *                     └─broadcast───────────► Stage 7
 * </pre>
 *
 * Task counts are set per operator, so the job runs the plan's task counts whatever the
 * environment's default parallelism (turn off the adaptive batch scheduler's auto-parallelism).
 *
 * <p>Memory: unless {@link #withTaskMemoryBudget} sets a budget, every stage operator declares an
 * operator-scope use of Flink managed memory, and each task's budget is its share of its slot's
 * managed memory ({@code taskmanager.memory.managed.size} or {@code .fraction}, divided among the
 * slots and, within a slot, among the operators that declared a use). Immutable.
 */
public final class StageGraphCompiler {
  /**
   * The weight of a stage operator's managed memory use: all stage operators weigh the same, so
   * stages chained into one task split its slot's managed memory evenly.
   */
  static final int MANAGED_MEMORY_WEIGHT = 100;

  private final BatchCompression compression;
  private final ScanSourceFactory scans;
  private final long taskMemoryBudget;
  private final StageOutputHook hook;

  private StageGraphCompiler(
      BatchCompression compression,
      ScanSourceFactory scans,
      long taskMemoryBudget,
      StageOutputHook hook) {
    this.compression = requireNonNull(compression, "compression is null");
    this.hook = requireNonNull(hook, "hook is null");
    this.scans = requireNonNull(scans, "scans is null");
    if (taskMemoryBudget <= 0 && taskMemoryBudget != StageTaskFactory.MANAGED_MEMORY) {
      throw new IllegalArgumentException(
          "task memory budget must be positive: " + taskMemoryBudget);
    }
    this.taskMemoryBudget = taskMemoryBudget;
  }

  /**
   * No batch compression, no scan sources, each task's memory budget its share of Flink managed
   * memory.
   */
  public StageGraphCompiler() {
    this(
        BatchCompression.NONE,
        ScanSourceFactory.NONE,
        StageTaskFactory.MANAGED_MEMORY,
        StageOutputHook.NONE);
  }

  /** The same compiler with {@code compression} on every edge between stages. */
  public StageGraphCompiler withCompression(BatchCompression compression) {
    return new StageGraphCompiler(compression, scans, taskMemoryBudget, hook);
  }

  /** The same compiler reading scans through {@code scans}. */
  public StageGraphCompiler withScanSources(ScanSourceFactory scans) {
    return new StageGraphCompiler(compression, scans, taskMemoryBudget, hook);
  }

  /**
   * The same compiler giving every stage task a memory budget of {@code bytes} for the Arrow data
   * its operators hold, instead of its share of Flink managed memory: sorts, hash aggregations and
   * hash joins beyond it spill to the task manager's temp directories (only a join key with more
   * build rows than the budget fails).
   */
  public StageGraphCompiler withTaskMemoryBudget(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("task memory budget must be positive: " + bytes);
    }
    return new StageGraphCompiler(compression, scans, bytes, hook);
  }

  /** The same compiler giving every task its share of its slot's Flink managed memory. */
  public StageGraphCompiler withManagedMemoryBudget() {
    return new StageGraphCompiler(compression, scans, StageTaskFactory.MANAGED_MEMORY, hook);
  }

  /**
   * The same compiler passing every stage's output through {@code hook} (tests: inject a failure
   * into a stage's task).
   */
  public StageGraphCompiler withStageOutputHook(StageOutputHook hook) {
    return new StageGraphCompiler(compression, scans, taskMemoryBudget, hook);
  }

  public BatchCompression compression() {
    return compression;
  }

  /** Adds the stages of {@code graph} to {@code env}; returns the final stage's output. */
  public DataStream<BatchRecord> compile(StreamExecutionEnvironment env, StageGraph graph) {
    requireNonNull(env, "env is null");
    requireNonNull(graph, "graph is null");
    List<DataStream<BatchRecord>> outputs = new ArrayList<>();
    Set<Integer> unboundedStages = new HashSet<>();
    for (Stage stage : graph.stages()) {
      Set<Integer> unboundedInputs = unboundedInputs(stage, unboundedStages);
      if (!unboundedInputs.isEmpty()) {
        unboundedStages.add(stage.id());
      }
      DataStream<BatchRecord> output = compileStage(env, graph, stage, unboundedInputs, outputs);
      DataStream<BatchRecord> hooked = hook.apply(stage, output);
      if (hooked.getParallelism() != output.getParallelism()) {
        throw new IllegalStateException(
            "a stage output hook changed the task count of stage " + stage.id());
      }
      outputs.add(hooked);
    }
    return outputs.get(outputs.size() - 1);
  }

  /**
   * The inputs of {@code stage} (numbered as its task pipeline's) that read a stream: an unbounded
   * scan, or a stage in {@code unboundedStages} (stages come in dependency order).
   */
  private static Set<Integer> unboundedInputs(Stage stage, Set<Integer> unboundedStages) {
    Set<Integer> unbounded = new HashSet<>();
    List<PlanNode> leaves = PlanPipelines.inputs(stage.plan());
    for (int i = 0; i < leaves.size(); i++) {
      PlanNode leaf = leaves.get(i);
      if (leaf instanceof Scan scan
          ? scan.source().isUnbounded()
          : leaf instanceof StageInput input && unboundedStages.contains(input.stage())) {
        unbounded.add(i);
      }
    }
    return unbounded;
  }

  /**
   * The inputs of {@code stage} whose rows its tasks keep ({@link KeptInputs}: a join's build side,
   * an aggregate's input): a STREAMING task checkpoints them and replays them on a restore, and
   * only them, since the rows of the others (a table in {@code table UNION ALL stream}) have gone
   * downstream and must not go again.
   */
  private static Set<Integer> keptInputs(Stage stage) {
    return KeptInputs.of(stage.plan());
  }

  private DataStream<BatchRecord> compileStage(
      StreamExecutionEnvironment env,
      StageGraph graph,
      Stage stage,
      Set<Integer> unboundedInputs,
      List<DataStream<BatchRecord>> outputs) {
    DataStream<BatchRecord> output = compileOperator(env, graph, stage, unboundedInputs, outputs);
    output.getTransformation().setUid(uid(stage));
    if (taskMemoryBudget == StageTaskFactory.MANAGED_MEMORY) {
      output
          .getTransformation()
          .declareManagedMemoryUseCaseAtOperatorScope(
              ManagedMemoryUseCase.OPERATOR, MANAGED_MEMORY_WEIGHT);
    }
    return output;
  }

  private DataStream<BatchRecord> compileOperator(
      StreamExecutionEnvironment env,
      StageGraph graph,
      Stage stage,
      Set<Integer> unboundedInputs,
      List<DataStream<BatchRecord>> outputs) {
    List<PlanNode> leaves = PlanPipelines.inputs(stage.plan());
    List<DataStream<BatchRecord>> inputs = new ArrayList<>();
    for (int i = 0; i < leaves.size(); i++) {
      inputs.add(leaves.get(i).accept(new LeafStreams(env, graph, stage, outputs, i)));
    }
    BatchTypeInfo type = edgeType(graph, stage);
    StageTaskFactory task =
        new PlanTaskFactory(
            stage.id(),
            stage.plan(),
            taskMemoryBudget,
            unboundedInputs,
            keptInputs(stage),
            KeptInputs.sources(stage.plan()));
    OutputSplit split = StageEdges.split(stage.distribution());
    String name = "stage " + stage.id() + ": " + stage.plan();
    int tasks = stage.tasks();
    // Flink chains a scan's source into an n-input operator only (HEAD_WITH_SOURCES), never into
    // a two-input one: a stage with a scan and another input takes the n-input operator.
    // A STREAMING job's operators cannot select their inputs: its tasks keep the order themselves.
    // Its scans are not chained into the stage either: a finished bounded source chained into a
    // task that runs on stops the task's checkpoints from completing.
    boolean streaming =
        env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.STREAMING;
    boolean chainsScan =
        !streaming && inputs.size() >= 2 && leaves.stream().anyMatch(Scan.class::isInstance);
    switch (chainsScan ? Math.max(3, inputs.size()) : inputs.size()) {
      case 0:
        return env.fromSequence(0, tasks - 1)
            .name("stage " + stage.id() + ": trigger")
            .uid(uid(stage) + "-trigger")
            .setParallelism(tasks)
            .forward()
            .transform(name, type, new SourceStageOperator(task, split))
            .setParallelism(tasks);
      case 1:
        SingleOutputStreamOperator<BatchRecord> one =
            inputs
                .get(0)
                .transform(name, type, new OneInputStageOperator(task, split, streaming))
                .setParallelism(tasks);
        // Never chained to a shared producer: a chained consumer would take (and close) the
        // batches the producer's other readers are sent, and a shared output must be written once
        // and read by each (a blocking partition in BATCH mode).
        return forwardsSharedStage(graph, stage) ? one.startNewChain() : one;
      case 2:
        return inputs
            .get(0)
            .connect(inputs.get(1))
            .transform(
                name,
                type,
                streaming
                    ? new StreamingTwoInputStageOperator(task, split)
                    : new TwoInputStageOperator(task, split))
            .setParallelism(tasks);
      default:
        MultipleInputTransformation<BatchRecord> transformation =
            new MultipleInputTransformation<>(
                name,
                new MultipleInputStageOperatorFactory(inputs.size(), task, split, streaming),
                type,
                tasks);
        inputs.forEach(input -> transformation.addInput(input.getTransformation()));
        env.addOperator(transformation);
        return new DataStream<>(env, transformation);
    }
  }

  /**
   * The uid of {@code stage}'s operator. A savepoint maps operator state by uid, and Flink's
   * generated ones change with the job's shape (a stage output hook, a changed chain), so each
   * stage's operator is {@code quiver-stage-N-F}, F the digest of what its state means ({@link
   * StageFingerprint}: a savepoint of another query is refused, not misread), and the operators of
   * its scans' sources {@code quiver-stage-N-F-input-K[-i]} (see {@link LeafStreams#visitScan}).
   */
  private static String uid(Stage stage) {
    return "quiver-stage-" + stage.id() + "-" + StageFingerprint.of(stage);
  }

  /** Whether {@code stage} reads, FORWARD, a stage that other stage inputs read too. */
  private static boolean forwardsSharedStage(StageGraph graph, Stage stage) {
    return stage.inputs().stream()
        .anyMatch(input -> input.mode() == InputMode.FORWARD && graph.isShared(input.stage()));
  }

  /** The type of the edge leaving {@code stage}: its schema, named after both ends. */
  private BatchTypeInfo edgeType(StageGraph graph, Stage stage) {
    List<Integer> consumers = graph.consumers(stage.id());
    String to =
        consumers.isEmpty()
            ? "result"
            : consumers.size() == 1
                ? "stage " + consumers.get(0)
                : "stages " + consumers.stream().map(String::valueOf).collect(joining(", "));
    return BatchTypeInfo.of(
        stage.plan().arrowSchema(), compression, "stage " + stage.id() + " → " + to);
  }

  /** The stream feeding one input leaf of a stage: a stage input's edge, or a scan's source. */
  private final class LeafStreams extends DefaultPlanVisitor<DataStream<BatchRecord>> {
    private final StreamExecutionEnvironment env;
    private final StageGraph graph;
    private final Stage consumer;
    private final List<DataStream<BatchRecord>> outputs;
    private final int leaf;

    LeafStreams(
        StreamExecutionEnvironment env,
        StageGraph graph,
        Stage consumer,
        List<DataStream<BatchRecord>> outputs,
        int leaf) {
      this.env = env;
      this.graph = graph;
      this.consumer = consumer;
      this.outputs = outputs;
      this.leaf = leaf;
    }

    @Override
    protected DataStream<BatchRecord> visitDefault(PlanNode node) {
      throw new IllegalStateException(node + " is not an input leaf of " + consumer);
    }

    @Override
    public DataStream<BatchRecord> visitStageInput(StageInput input) {
      Stage producer = graph.stage(input.stage());
      return StageEdges.read(outputs.get(producer.id()), producer, input, consumer);
    }

    @Override
    public DataStream<BatchRecord> visitScan(Scan scan) {
      BatchTypeInfo type =
          BatchTypeInfo.of(
              scan.arrowSchema(),
              compression,
              "scan " + scan.source().name() + " → stage " + consumer.id());
      DataStream<BatchRecord> source = scans.source(env, scan, type);
      if (source.getParallelism() != scan.tasks()) {
        throw new IllegalStateException(
            "the source of "
                + scan
                + " runs "
                + source.getParallelism()
                + " tasks, the scan needs "
                + scan.tasks());
      }
      // The source keeps its read positions (Kafka offsets) in its state: stable uids for it and
      // for what the factory put between it and the stage, where none is set.
      int operator = 0;
      for (Transformation<?> t : source.getTransformation().getTransitivePredecessors()) {
        if (t instanceof PhysicalTransformation<?> && t.getUid() == null) {
          String uid = uid(consumer) + "-input-" + leaf;
          t.setUid(operator == 0 ? uid : uid + "-" + operator);
          operator++;
        }
      }
      return source.forward();
    }
  }
}
