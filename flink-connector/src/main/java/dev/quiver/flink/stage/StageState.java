package dev.quiver.flink.stage;

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

  private StageState() {}
}
