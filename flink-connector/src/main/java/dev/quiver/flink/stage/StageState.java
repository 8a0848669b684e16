package dev.quiver.flink.stage;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.runtime.state.OperatorStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StatePartitionStreamProvider;
import org.apache.flink.runtime.state.StateSnapshotContext;

/**
 * Where a stage task keeps its checkpointed state, in two places of Flink's operator state:
 *
 * <ul>
 *   <li><b>Raw operator state</b>, one partition per task: the stateful operators' states, streamed
 *       as they are written ({@link dev.quiver.operators.exec.TaskPipeline#snapshotState(
 *       OutputStream)}: an updating aggregate's cold groups straight from its RocksDB store, a
 *       window's groups batch by batch). Nothing assembles them on the heap, and no state is
 *       bounded by a byte array's 2 GiB. Written only when the pipeline has a stateful operator.
 *   <li><b>One operator list state of byte arrays</b>: the control entries, whether the pipeline
 *       had started ({@link #STARTED}) and the {@link OrderedInputs} entries. They stay here
 *       because they are small one by one (a flag; one bounded input batch per entry) and the task
 *       holds them on the heap anyway (OrderedInputs keeps its log to replay it), so a stream would
 *       save nothing, while the list keeps each entry a separate, self-describing record.
 * </ul>
 *
 * <p>Both are split, not unioned, and with the same task count each task gets its own back on a
 * restore: Flink 2.3's {@code RoundRobinOperatorStateRepartitioner.repartitionState} returns the
 * previous subtask states unchanged when the parallelism is unchanged and no state is UNION (or a
 * partly finished BROADCAST), and {@code StateAssignmentOperation} repartitions raw operator state
 * with the same repartitioner as managed operator state ({@code reDistributePartitionableStates}),
 * so subtask i's raw partition goes back to subtask i, which reads it from {@code
 * StateInitializationContext.getRawOperatorStateInputs()}. A stage's state cannot be redistributed
 * over another task count (rescaling a streaming query from a checkpoint is not supported), so a
 * task that is handed more than one partition refuses it.
 *
 * <p>Flink's {@code StreamOperatorStateHandler} closes the raw state inputs as soon as {@code
 * initializeState} returns, before {@code open} builds the task's pipeline: so the task copies its
 * partition, as bytes, to a file in its spilling directory (disk, not heap) and its pipeline
 * restores from that file in {@code open}, which deletes it.
 *
 * <p>A checkpoint or savepoint written before the raw state held the operators' states as {@link
 * #OPERATOR} entries of the list; a task restored from one (no raw partition) reads them from
 * there.
 */
final class StageState {
  static final ListStateDescriptor<byte[]> DESCRIPTOR =
      new ListStateDescriptor<>(
          "quiver-stage-task", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

  /**
   * A stateful operator's state; the index is its position in the task's pipeline. Read only: from
   * checkpoints written before the operators' states went to raw operator state.
   */
  static final byte OPERATOR = 2;

  /**
   * The pipeline had started: its leading sources (VALUES before every stage input) had run. No
   * index or payload.
   */
  static final byte STARTED = 3;

  private static final int READ_BUFFER = 64 << 10;

  private ListState<byte[]> list;
  private List<byte[]> restored; // until the task's driver exists
  private Path operators; // the restored raw partition, copied to disk until the driver exists

  /**
   * Opens the task's list state; a restored task keeps its entries, and copies its raw partition
   * into {@code directory}, for {@link #restore}.
   */
  void initialize(StateInitializationContext context, Path directory) throws Exception {
    list = context.getOperatorStateStore().getListState(DESCRIPTOR);
    if (context.isRestored()) {
      restored = new ArrayList<>();
      list.get().forEach(restored::add);
      int partitions = 0;
      for (StatePartitionStreamProvider partition : context.getRawOperatorStateInputs()) {
        if (++partitions > 1) {
          discard();
          throw new IllegalStateException(
              "a stage task was handed more than one partition of raw operator state: its"
                  + " checkpoint was taken at another parallelism, which a streaming query cannot"
                  + " be restored at");
        }
        operators = Files.createTempFile(directory, "quiver-restore-", ".state");
        try (InputStream in = partition.getStream()) {
          Files.copy(in, operators, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
          discard();
          throw e;
        }
      }
    }
  }

  /** Where task {@code partition} copies its raw partition: one of the spilling directories. */
  static Path directory(Environment environment, int partition) {
    File[] directories = environment.getIOManager().getSpillingDirectories();
    return directories[Math.floorMod(partition, directories.length)].toPath();
  }

  /** Replays the restored state, if any, into the new task's {@code driver}. */
  void restore(StageDriver driver) throws IOException {
    if (restored == null) {
      return;
    }
    try {
      if (operators == null) {
        driver.restore(restored, null); // a checkpoint without raw state: OPERATOR entries, if any
      } else {
        try (InputStream in =
            new BufferedInputStream(Files.newInputStream(operators), READ_BUFFER)) {
          driver.restore(restored, in);
        }
      }
    } finally {
      restored = null;
      discard();
    }
  }

  /** Deletes the copy of the raw partition, if {@link #restore} has not. */
  void discard() throws IOException {
    if (operators != null) {
      Path copy = operators;
      operators = null;
      Files.deleteIfExists(copy);
    }
  }

  /**
   * Replaces the task's list entries with {@code driver}'s control entries and streams its
   * operators' states into a new partition of the checkpoint's raw operator state.
   */
  void snapshot(StageDriver driver, StateSnapshotContext context) throws Exception {
    if (list == null || driver == null) {
      return;
    }
    list.update(driver.snapshot());
    if (driver.hasOperatorState()) {
      OperatorStateCheckpointOutputStream out = context.getRawOperatorStateOutput();
      out.startNewPartition();
      driver.snapshotOperators(out); // Flink closes the stream and takes its handle
    }
  }

  /** One entry. */
  static byte[] entry(byte kind, int index, byte[] payload) {
    byte[] entry = new byte[payload.length + 5];
    entry[0] = kind;
    entry[1] = (byte) (index >>> 24);
    entry[2] = (byte) (index >>> 16);
    entry[3] = (byte) (index >>> 8);
    entry[4] = (byte) index;
    System.arraycopy(payload, 0, entry, 5, payload.length);
    return entry;
  }

  static byte kind(byte[] entry) {
    return entry[0];
  }

  static int index(byte[] entry) {
    return ((entry[1] & 0xff) << 24)
        | ((entry[2] & 0xff) << 16)
        | ((entry[3] & 0xff) << 8)
        | (entry[4] & 0xff);
  }

  static byte[] payload(byte[] entry) {
    return Arrays.copyOfRange(entry, 5, entry.length);
  }
}
