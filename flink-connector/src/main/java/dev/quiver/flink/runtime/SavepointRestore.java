package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.filesystem.AbstractFsCheckpointStorageAccess;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraphHasherV2;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks, before a job that restores a savepoint ({@code execution.state-recovery.path}) is
 * submitted, that the savepoint fits the job, and lets it leave out the one state it must not
 * restore: the result sink's.
 *
 * <p>Why the result sink's state is left out: Flink's collect sink checkpoints the results its
 * reader has not fetched yet and the reader's position. The stopped job's reader got every result
 * up to the savepoint (a job stopped with a savepoint ends, and its reader fetches the rest); a new
 * reader of the restored job starts at position 0 and cannot take over the old one's, so the sink
 * of the new job starts empty. Every job's result sink has a uid of its own ({@link BatchResults}),
 * so its old state is "unclaimed", which Flink refuses unless told to ignore unclaimed state; and
 * that would also silently drop a stage's windows or a source's offsets that no operator of the new
 * job claims (another query's savepoint). So the savepoint is read here first:
 *
 * <ul>
 *   <li>it must exist and be a savepoint (or a retained checkpoint): a one-line error otherwise;
 *   <li>every operator in it that has state, except a result sink, must be an operator of the new
 *       job (the same uid: {@code quiver-stage-N}, the stage's scans' sources) with the same task
 *       count (a stage's state is split per task, never redistributed);
 * </ul>
 *
 * and only then is unclaimed state ignored, which is then the old result sink's alone.
 */
public final class SavepointRestore {
  private static final Logger LOG = LoggerFactory.getLogger(SavepointRestore.class);

  /** The prefix of every result sink's uid; the rest is random, new for every job. */
  static final String RESULT_SINK_UID = "quiverResult_";

  /** The name of every result sink operator. */
  static final String RESULT_SINK_NAME = "result sink";

  private SavepointRestore() {}

  /**
   * Checks the savepoint that {@code env}'s job restores, if any, against the job's operators, then
   * lets the job drop the result sink's state.
   *
   * @throws QuiverException if the savepoint does not exist, is not one, or does not fit the job
   */
  public static void prepare(StreamExecutionEnvironment env) {
    requireNonNull(env, "env is null");
    Optional<String> path = env.getConfiguration().getOptional(StateRecoveryOptions.SAVEPOINT_PATH);
    if (path.isEmpty()) {
      return;
    }
    check(path.get(), load(path.get()), operators(env));
    Configuration ignore = new Configuration();
    ignore.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
    env.configure(ignore);
  }

  /** The job's operators that have a uid, by the operator id Flink derives from it. */
  private static Map<OperatorID, Transformation<?>> operators(StreamExecutionEnvironment env) {
    Set<Transformation<?>> all = new LinkedHashSet<>();
    for (Transformation<?> sink : env.getTransformations()) {
      all.addAll(sink.getTransitivePredecessors());
    }
    Map<OperatorID, Transformation<?>> operators = new HashMap<>();
    for (Transformation<?> t : all) {
      if (t.getUid() != null) {
        operators.put(new OperatorID(StreamGraphHasherV2.generateUserSpecifiedHash(t.getUid())), t);
      }
    }
    return operators;
  }

  private static CheckpointMetadata load(String pointer) {
    try {
      Path path = new Path(pointer);
      if (!path.getFileSystem().exists(path)) {
        throw new QuiverException(
            ErrorCode.FILE_NOT_FOUND,
            "the savepoint "
                + pointer
                + " does not exist: give the path that stopping the query with a savepoint"
                + " returned");
      }
      var location = AbstractFsCheckpointStorageAccess.resolveCheckpointPointer(pointer);
      try (InputStream in = location.getMetadataHandle().openInputStream()) {
        return Checkpoints.loadCheckpointMetadata(
            new DataInputStream(in), SavepointRestore.class.getClassLoader(), pointer);
      }
    } catch (QuiverException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new QuiverException(
          ErrorCode.INVALID_FILE,
          "cannot restore from "
              + pointer
              + ": it is not a savepoint that can be read here ("
              + oneLine(e)
              + ")",
          e);
    }
  }

  private static void check(
      String pointer, CheckpointMetadata metadata, Map<OperatorID, Transformation<?>> operators) {
    List<String> unclaimed = new ArrayList<>();
    for (OperatorState state : metadata.getOperatorStates()) {
      if (!hasState(state)) {
        continue;
      }
      Transformation<?> operator = operators.get(state.getOperatorID());
      if (operator == null) {
        if (!isResultSink(state)) {
          unclaimed.add(describe(state));
        }
        continue;
      }
      if (operator.getParallelism() != state.getParallelism()) {
        throw new QuiverException(
            ErrorCode.INVALID_QUERY,
            "the savepoint "
                + pointer
                + " was taken with "
                + operator.getName()
                + " running "
                + state.getParallelism()
                + " tasks, and this query runs "
                + operator.getParallelism()
                + ": restore it with the parallelism it was taken with");
      }
    }
    if (!unclaimed.isEmpty()) {
      throw new QuiverException(
          ErrorCode.INVALID_QUERY,
          "the savepoint "
              + pointer
              + " was not taken from this query: it holds the state of "
              + String.join(", ", unclaimed)
              + ", which this query does not run; restore a savepoint of the same query");
    }
    LOG.info(
        "Restoring savepoint {} (checkpoint {}, {} operators with state)",
        pointer,
        metadata.getCheckpointId(),
        metadata.getOperatorStates().stream().filter(SavepointRestore::hasState).count());
  }

  private static boolean hasState(OperatorState state) {
    return state.getCoordinatorState() != null
        || state.getStates().stream().anyMatch(OperatorSubtaskState::hasState);
  }

  /**
   * Whether {@code state} is a result sink's: its uid says so (Flink 2 keeps uids and names in a
   * savepoint), or else its name.
   */
  private static boolean isResultSink(OperatorState state) {
    return state
        .getOperatorUid()
        .map(uid -> uid.startsWith(RESULT_SINK_UID))
        .orElseGet(() -> state.getOperatorName().map(RESULT_SINK_NAME::equals).orElse(false));
  }

  private static String describe(OperatorState state) {
    return state
        .getOperatorUid()
        .or(state::getOperatorName)
        .map(name -> "'" + name + "'")
        .orElse("operator " + state.getOperatorID());
  }

  private static String oneLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return message.replaceAll("\\s+", " ").strip();
  }

  /** A new result sink uid: every job's is its own. */
  static String resultSinkUid() {
    return RESULT_SINK_UID + UUID.randomUUID();
  }
}
