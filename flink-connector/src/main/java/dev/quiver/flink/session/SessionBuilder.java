package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.stage.StageTaskFactory;
import dev.quiver.plan.distribute.SpreadUnbalancedScans;
import dev.quiver.sql.PlannerOptions;
import dev.quiver.sql.RuntimeFilterPolicy;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.TaskManagerOptions;

/**
 * Configures a {@link QuiverSession}: where it runs (its own local MiniCluster by default, or a
 * remote Flink cluster), how many tasks a distributed stage runs, whether batches between stages
 * are compressed, and any Flink configuration.
 *
 * <pre>{@code
 * try (QuiverSession session = QuiverSession.builder().parallelism(4).build()) { ... }
 * QuiverSession.builder().remote("flink-jm", 8081, "/opt/quiver/quiver.jar").build();
 * }</pre>
 *
 * <p>Flink settings, in order of precedence: the session always runs BATCH jobs with the adaptive
 * scheduler's auto-parallelism off (the stage planner fixes every stage's task count); then the
 * given configuration; then Quiver's defaults, {@code pipeline.generic-types = false} (a batch is
 * never serialized with Kryo, so a silent fallback is a bug to report) and {@code
 * pipeline.object-reuse = true} (batches pass between chained operators without copies) and, for
 * the local cluster, {@code taskmanager.network.compression.codec = NONE} (see below).
 */
public final class SessionBuilder {
  /** The most tasks per stage a session uses by default, however many processors there are. */
  static final int MAX_DEFAULT_PARALLELISM = 8;

  private int parallelism = defaultParallelism();
  private BatchCompression compression = BatchCompression.NONE;
  private long broadcastThreshold = PlannerOptions.DEFAULT_BROADCAST_THRESHOLD;
  private long spreadThreshold = -1; // -1: by the cores the query's tasks can use
  private RuntimeFilterPolicy runtimeFilters = RuntimeFilterPolicy.OFF;
  private long taskMemoryBudget = StageTaskFactory.MANAGED_MEMORY;
  private final Configuration configuration = new Configuration();
  private String remoteHost;
  private int remotePort;
  private List<String> jarFiles = List.of();
  private StageOutputHook stageOutputHook = StageOutputHook.NONE;

  SessionBuilder() {}

  /** The available processors, at least 1 and at most {@value #MAX_DEFAULT_PARALLELISM}. */
  public static int defaultParallelism() {
    return Math.max(
        1, Math.min(Runtime.getRuntime().availableProcessors(), MAX_DEFAULT_PARALLELISM));
  }

  /** The number of tasks of each distributed stage (and, locally, the cluster's slots). */
  public SessionBuilder parallelism(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1: " + value);
    }
    this.parallelism = value;
    return this;
  }

  /** Run on a MiniCluster in this JVM, started by the session and closed with it (the default). */
  public SessionBuilder local() {
    this.remoteHost = null;
    this.jarFiles = List.of();
    return this;
  }

  /**
   * Run on the Flink cluster whose REST endpoint is {@code host:port}, shipping {@code jarFiles}
   * (Quiver and its dependencies, unless the cluster has them) with every job. Tables are opened
   * here, when registered and planned, and read by the cluster's tasks through the same paths: the
   * files must be on a file system both see, at the same paths.
   */
  public SessionBuilder remote(String host, int port, String... jarFiles) {
    this.remoteHost = requireNonNull(host, "host is null");
    this.remotePort = port;
    this.jarFiles = List.of(requireNonNull(jarFiles, "jarFiles is null"));
    return this;
  }

  /**
   * Joins whose build side is estimated at most {@code bytes} broadcast it instead of shuffling
   * both sides (default {@link PlannerOptions#DEFAULT_BROADCAST_THRESHOLD}; 0 turns broadcast joins
   * off except where NOT IN semantics need them).
   */
  public SessionBuilder broadcastThreshold(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("broadcast threshold is negative: " + bytes);
    }
    this.broadcastThreshold = bytes;
    return this;
  }

  /**
   * A scan whose most loaded task would read at least {@code bytes} more than its share (a table
   * stored as one large file) has its rows spread round-robin over every task before the joins and
   * aggregates above it ({@link SpreadUnbalancedScans}; {@link Long#MAX_VALUE} never spreads, 0
   * spreads every unbalanced scan). By default ({@link PlannerOptions#spreadThresholdFor}) scans
   * are spread only where the query's tasks can use more cores than one scan's decoding already
   * keeps busy: locally the smaller of the parallelism and the machine's processors, on a remote
   * cluster the parallelism.
   */
  public SessionBuilder spreadThreshold(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("spread threshold is negative: " + bytes);
    }
    this.spreadThreshold = bytes;
    return this;
  }

  /**
   * Which partitioned joins filter their probe rows by their build keys before they are shuffled
   * ({@link dev.quiver.plan.distribute.RuntimeFilters}); none by default ({@link
   * RuntimeFilterPolicy#OFF} says why).
   */
  public SessionBuilder runtimeFilters(RuntimeFilterPolicy policy) {
    this.runtimeFilters = requireNonNull(policy, "policy is null");
    return this;
  }

  /**
   * The bytes of Arrow memory each task's operators may hold. By default a task's budget is its
   * share of its slot's Flink managed memory ({@code taskmanager.memory.managed.size}, locally
   * {@link LocalCluster#defaultManagedMemory()}). Sorts, hash aggregations and hash joins beyond it
   * spill to Flink's {@code io.tmp.dirs}; only a join key with more build rows than the budget
   * fails with MEMORY_BUDGET_EXCEEDED.
   */
  public SessionBuilder taskMemoryBudget(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("task memory budget must be positive: " + bytes);
    }
    this.taskMemoryBudget = bytes;
    return this;
  }

  /** The compression of batches sent between stages (default none: best for a local cluster). */
  public SessionBuilder compression(BatchCompression value) {
    this.compression = requireNonNull(value, "value is null");
    return this;
  }

  /**
   * Passes every stage's output through {@code hook} (tests and instrumentation: inject a failure
   * or a latch into a stage's tasks, see {@link StageGraphCompiler#withStageOutputHook}); on a
   * remote cluster the hook's operators must be in the shipped jars.
   */
  public SessionBuilder stageOutputHook(StageOutputHook hook) {
    this.stageOutputHook = requireNonNull(hook, "hook is null");
    return this;
  }

  /** Adds {@code value}'s Flink settings (for the cluster, when local, and for every job). */
  public SessionBuilder configuration(Configuration value) {
    configuration.addAll(requireNonNull(value, "value is null"));
    return this;
  }

  /**
   * Opens the session. A local session starts its MiniCluster (seconds) with its first query and
   * reuses it for every later one; planning and EXPLAIN never start it.
   */
  public QuiverSession build() {
    Configuration flink = flinkConfiguration();
    SessionCluster cluster;
    if (remoteHost == null) {
      cluster = LocalCluster.create(flink, parallelism);
    } else {
      cluster = new RemoteCluster(remoteHost, remotePort, jarFiles, flink);
    }
    StageGraphCompiler compiler =
        new StageGraphCompiler().withCompression(compression).withStageOutputHook(stageOutputHook);
    if (taskMemoryBudget != StageTaskFactory.MANAGED_MEMORY) {
      compiler = compiler.withTaskMemoryBudget(taskMemoryBudget);
    }
    return new QuiverSession(
        cluster,
        new PlannerOptions(
                parallelism,
                broadcastThreshold,
                spreadThreshold >= 0
                    ? spreadThreshold
                    : PlannerOptions.spreadThresholdFor(
                        remoteHost == null
                            ? Math.min(parallelism, Runtime.getRuntime().availableProcessors())
                            : parallelism))
            .withRuntimeFilters(runtimeFilters),
        compiler);
  }

  private Configuration flinkConfiguration() {
    Configuration flink = new Configuration();
    flink.set(PipelineOptions.GENERIC_TYPES, false);
    flink.set(PipelineOptions.OBJECT_REUSE, true);
    // Flink's LZ4 shuffle compression decodes with lz4-java's pure-Java safe decompressor: a
    // quarter of all task CPU in a JFR profile of TPC-H SF 1 on a MiniCluster, where the data
    // never leaves the machine. Batches can be compressed by Quiver instead (compression()). On a
    // remote cluster this is the cluster's own setting.
    flink.set(
        NettyShuffleEnvironmentOptions.SHUFFLE_COMPRESSION_CODEC,
        NettyShuffleEnvironmentOptions.CompressionCodec.NONE);
    // A cancelled task whose thread is inside one long operator call (a nested loop join of one
    // probe batch) sees the cancel when Flink interrupts it (TaskInterrupts): every 2 s instead of
    // Flink's 30 s, so a cancel takes seconds, not half a minute or more.
    flink.set(TaskManagerOptions.TASK_CANCELLATION_INTERVAL, Duration.ofSeconds(2));
    flink.addAll(configuration);
    flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
    flink.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    flink.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
    return flink;
  }
}
