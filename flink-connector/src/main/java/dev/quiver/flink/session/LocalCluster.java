package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.executiongraph.ErrorInfo;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.FileUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MiniCluster in this JVM for the whole session. Starting a MiniCluster takes seconds (2.1–2.4
 * s here), a job on a running one a fraction of that, so the session starts it once and submits
 * every query's job to it ({@link MiniClusterExecutors}).
 *
 * <p>One TaskManager with as many slots as the session's parallelism (a query's stages share
 * slots), unless the configuration says {@code taskmanager.numberOfTaskSlots}. Its REST endpoint
 * binds a free port unless the configuration names one, so that sessions, test runs and other users
 * of the machine never collide on 8081.
 *
 * <p>Managed memory: every task's memory budget is by default its slot's share of the TaskManager's
 * managed memory. Flink gives a local TaskManager 128 MB of it in total, which would make every
 * query with a few slots spill; unless the configuration says {@code
 * taskmanager.memory.managed.size}, the cluster gets {@link #defaultManagedMemory()}: half the
 * JVM's maximum heap. Arrow's buffers live outside the heap, so this is native memory on top of
 * {@code -Xmx}, as in a Flink TaskManager process (and Arrow's default limit of direct memory is
 * {@code -Xmx} itself).
 *
 * <p>Public for programs that run other Flink jobs beside Quiver's on the same kind of cluster (the
 * TPC-H benchmark runs Flink SQL on one): {@link #environment()} gives a BATCH environment whose
 * jobs go to this cluster.
 */
// close() stops the MiniCluster, which waits and may throw InterruptedException.
@SuppressWarnings("try")
public final class LocalCluster implements SessionCluster {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);

  /** Flink's own default for a local TaskManager; the least {@link #defaultManagedMemory()}. */
  private static final MemorySize MIN_MANAGED_MEMORY = MemorySize.ofMebiBytes(128);

  private final Configuration clusterConfiguration;
  private final Configuration jobConfiguration;
  private final int slots;
  private MiniCluster cluster; // started by the first job: planning and EXPLAIN need none
  private MiniClusterExecutors executors;
  private Path checkpoints; // this cluster's checkpoint directory, if it made one
  private boolean closed;

  private LocalCluster(
      Configuration clusterConfiguration, Configuration jobConfiguration, int slots) {
    this.clusterConfiguration = clusterConfiguration;
    this.jobConfiguration = jobConfiguration;
    this.slots = slots;
  }

  /**
   * A MiniCluster configured with {@code configuration}, whose jobs run with it too. It starts when
   * the first job needs it, so a session that only plans or explains never pays for it.
   *
   * @param parallelism the default number of slots
   */
  public static LocalCluster create(Configuration configuration, int parallelism) {
    requireNonNull(configuration, "configuration is null");
    Configuration clusterConfiguration = new Configuration(configuration);
    if (!clusterConfiguration.contains(RestOptions.BIND_PORT)
        && !clusterConfiguration.contains(RestOptions.PORT)) {
      clusterConfiguration.set(RestOptions.BIND_PORT, "0");
    }
    if (!clusterConfiguration.contains(TaskManagerOptions.MANAGED_MEMORY_SIZE)) {
      clusterConfiguration.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, defaultManagedMemory());
    }
    int slots =
        clusterConfiguration.getOptional(TaskManagerOptions.NUM_TASK_SLOTS).orElse(parallelism);
    return new LocalCluster(clusterConfiguration, new Configuration(configuration), slots);
  }

  /** The local TaskManager's managed memory unless configured: half the JVM's maximum heap. */
  public static MemorySize defaultManagedMemory() {
    long half = Runtime.getRuntime().maxMemory() / 2;
    return new MemorySize(Math.max(half, MIN_MANAGED_MEMORY.getBytes()));
  }

  /** The running cluster, started now if this is the first use. */
  private synchronized MiniCluster running() {
    if (closed) {
      throw new IllegalStateException("the session's local MiniCluster is closed");
    }
    if (cluster == null) {
      checkTempDirectories(clusterConfiguration);
      Configuration configuration = withCheckpointDirectory(clusterConfiguration);
      MiniCluster created =
          new MiniCluster(
              new MiniClusterConfiguration.Builder()
                  .setConfiguration(configuration)
                  .setNumTaskManagers(1)
                  .setNumSlotsPerTaskManager(slots)
                  .build());
      try {
        created.start();
      } catch (Exception e) {
        try {
          created.close();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
        Throwable root = ExceptionUtils.stripCompletionException(e);
        while (root.getCause() != null && root.getCause() != root) {
          root = root.getCause();
        }
        throw new IllegalStateException(
            "cannot start the local Flink MiniCluster: "
                + root.getClass().getSimpleName()
                + ": "
                + root.getMessage(),
            e);
      }
      cluster = created;
      executors = new MiniClusterExecutors(created);
    }
    return cluster;
  }

  /**
   * Fails with one line naming the directory when one of {@code io.tmp.dirs} cannot be written:
   * spill files and Flink's blocking exchanges go there, and Flink's own start failure says only
   * that the TaskManager did not start, four causes above the directory.
   */
  private static void checkTempDirectories(Configuration configuration) {
    for (String name : ConfigurationUtils.parseTempDirectories(configuration)) {
      Path directory = Path.of(name);
      try {
        Files.createDirectories(directory);
        if (!Files.isWritable(directory)) {
          throw new AccessDeniedException(name, null, "not writable");
        }
      } catch (IOException e) {
        String reason =
            e instanceof FileSystemException fs && fs.getReason() != null
                ? fs.getReason()
                : e.getClass().getSimpleName() + " " + e.getMessage();
        throw new QuiverException(
            ErrorCode.FILE_WRITE_FAILED,
            "Temporary directory "
                + directory
                + " ("
                + CoreOptions.TMP_DIRS.key()
                + ") cannot be used: "
                + reason
                + "; spill files and exchange data are written there: set "
                + CoreOptions.TMP_DIRS.key()
                + " to writable directories",
            e);
      }
    }
  }

  @Override
  public StreamExecutionEnvironment environment() {
    running();
    Configuration configuration = new Configuration(jobConfiguration);
    configuration.set(DeploymentOptions.TARGET, MiniClusterExecutors.TARGET);
    configuration.set(DeploymentOptions.ATTACHED, true);
    StreamExecutionEnvironment env =
        new StreamExecutionEnvironment(
            executors, configuration, LocalCluster.class.getClassLoader());
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    return env;
  }

  /** Whether a job has started the cluster yet. */
  synchronized boolean isStarted() {
    return cluster != null;
  }

  @Override
  public Optional<String> failedTask(JobID jobId) {
    MiniCluster started;
    synchronized (this) {
      started = cluster;
    }
    if (started == null) {
      return Optional.empty();
    }
    try {
      AccessExecutionVertex last = null;
      long lastTime = Long.MIN_VALUE;
      for (AccessExecutionVertex vertex :
          started
              .getArchivedExecutionGraph(jobId)
              .get(10, TimeUnit.SECONDS)
              .getAllExecutionVertices()) {
        Optional<ErrorInfo> failure = vertex.getFailureInfo();
        if (failure.isPresent() && failure.get().getTimestamp() > lastTime) {
          last = vertex;
          lastTime = failure.get().getTimestamp();
        }
      }
      return Optional.ofNullable(last).map(AccessExecutionVertex::getTaskNameWithSubtaskIndex);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (ExecutionException | TimeoutException e) {
      LOG.debug("no failed task of job {}: {}", jobId, e.toString());
      return Optional.empty();
    }
  }

  /** The cluster, for tests that look at its jobs. */
  MiniCluster miniCluster() {
    return running();
  }

  @Override
  public URI restAddress() {
    try {
      return running().getRestAddress().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking the local cluster's address", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the local cluster's REST endpoint did not start", e);
    }
  }

  @Override
  public OptionalInt slots() {
    return OptionalInt.of(slots);
  }

  /** The jobs that have not reached a terminal state; 0 before the cluster has started. */
  int unfinishedJobs() {
    MiniCluster started;
    synchronized (this) {
      started = cluster;
    }
    if (started == null) {
      return 0;
    }
    try {
      return (int)
          started.listJobs().get().stream()
              .filter(job -> !job.getJobState().isGloballyTerminalState())
              .count();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing the local cluster's jobs", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list the local cluster's jobs", e);
    }
  }

  @Override
  public String description() {
    return "local MiniCluster (" + slots + " slots)";
  }

  /**
   * {@code configuration} with a checkpoint directory of this cluster's own (under the first of
   * {@code io.tmp.dirs}, deleted by {@link #close}) unless it names a checkpoint storage or
   * directory: without one, Flink keeps checkpoints in the JobManager's memory, which refuses any
   * task state above 5 MB, so a streaming query holding more (an interval join's rows, a window
   * join's windows) failed every checkpoint and restarted forever.
   */
  private Configuration withCheckpointDirectory(Configuration configuration) {
    if (configuration.contains(CheckpointingOptions.CHECKPOINT_STORAGE)
        || configuration.contains(CheckpointingOptions.CHECKPOINTS_DIRECTORY)) {
      return configuration;
    }
    try {
      Path parent = Path.of(ConfigurationUtils.parseTempDirectories(configuration)[0]);
      checkpoints = Files.createTempDirectory(parent, "quiver-checkpoints-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a checkpoint directory: " + e.getMessage(), e);
    }
    Configuration withDirectory = new Configuration(configuration);
    withDirectory.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
    return withDirectory;
  }

  /** The checkpoint directory this cluster made and deletes on close, if it made one. */
  synchronized Optional<Path> checkpointDirectory() {
    return Optional.ofNullable(checkpoints);
  }

  @Override
  public synchronized void close() throws Exception {
    closed = true;
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (checkpoints != null) {
        FileUtils.deleteDirectory(checkpoints.toFile());
      }
    }
  }
}
