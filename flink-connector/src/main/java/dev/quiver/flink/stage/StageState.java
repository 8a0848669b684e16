package dev.quiver.flink.stage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.state.StateInitializationContext;

/**
 * Where a stage task keeps its checkpointed state: one operator list state of byte arrays per task
 * (its operators' states, whether its pipeline had started, and {@link OrderedInputs} entries).
 * Operator list state is split, not unioned: with the same task count each task gets its own
 * entries back on a restore. A stage's state cannot be redistributed over another task count
 * (rescaling a streaming query from a checkpoint is not supported).
 */
final class StageState {
  static final ListStateDescriptor<byte[]> DESCRIPTOR =
      new ListStateDescriptor<>(
          "quiver-stage-task", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

  /** A stateful operator's state; the index is its position in the task's pipeline. */
  static final byte OPERATOR = 2;

  /**
   * The pipeline had started: its leading sources (VALUES before every stage input) had run. No
   * index or payload.
   */
  static final byte STARTED = 3;

  private ListState<byte[]> list;
  private List<byte[]> restored; // until the task's driver exists

  /** Opens the task's list state; a restored task keeps its entries for {@link #restore}. */
  void initialize(StateInitializationContext context) throws Exception {
    list = context.getOperatorStateStore().getListState(DESCRIPTOR);
    if (context.isRestored()) {
      restored = new ArrayList<>();
      list.get().forEach(restored::add);
    }
  }

  /** Replays the restored entries, if any, into the new task's {@code driver}. */
  void restore(StageDriver driver) {
    if (restored != null) {
      driver.restore(restored);
      restored = null;
    }
  }

  /** Replaces the task's entries with {@code driver}'s state now, for a checkpoint. */
  void snapshot(StageDriver driver) throws Exception {
    if (list != null && driver != null) {
      list.update(driver.snapshot());
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
