package dev.quiver.flink.stage;

import java.util.Arrays;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;

/**
 * Where a stage task keeps its checkpointed state: one operator list state of byte arrays per task
 * ({@link OrderedInputs} entries). Operator list state is split, not unioned: with the same task
 * count each task gets its own entries back on a restore. A stage's state cannot be redistributed
 * over another task count (rescaling a streaming query from a checkpoint is not supported).
 */
final class StageState {
  static final ListStateDescriptor<byte[]> DESCRIPTOR =
      new ListStateDescriptor<>(
          "quiver-stage-task", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

  /** A stateful operator's state; the index is its position in the task's pipeline. */
  static final byte OPERATOR = 2;

  private StageState() {}

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
