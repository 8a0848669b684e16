package dev.quiver.flink.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.UpdatingAggregateOperator;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.changelog.RowKind;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A stage task's checkpoint without a cluster: its operators' states as the stream a task writes to
 * Flink's raw operator state, and as the OPERATOR list entries checkpoints held before it (a
 * savepoint of an earlier release), each restored into a new task that then ends at the changelog
 * of the task that never stopped.
 *
 * <pre>
 *   UpdatingAggregate[SINGLE, keys=[#0], count(*)] ◄─ input 0: a stream of BIGINT v
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
class StageStateTest {
  private static final Schema SCHEMA =
      new Schema(List.of(new Field("v", FieldType.notNullable(new ArrowType.Int(64, true)), null)));
  private static final long[] FIRST = {1, 2, 2, 3, 7, 7, 7};
  private static final long[] SECOND = {2, 3, 4, 7, 9};

  @Test
  void operatorStatesStreamedAsRawStateRestore(BufferAllocator allocator) throws IOException {
    Map<Long, Long> whole = uninterrupted(allocator);
    List<List<Object>> sent = new ArrayList<>();
    List<byte[]> control;
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    try (StageDriver task = driver(allocator, sent)) {
      task.receive(0, batch(allocator, FIRST));
      task.flush();
      control = task.snapshot();
      assertThat(task.hasOperatorState()).isTrue();
      task.snapshotOperators(raw);
    }
    assertThat(control)
        .as("the list holds control entries only")
        .noneMatch(entry -> StageState.kind(entry) == StageState.OPERATOR);
    assertThat(raw.size()).isPositive();
    try (StageDriver restored = driver(allocator, sent)) {
      restored.restore(control, new ByteArrayInputStream(raw.toByteArray()));
      restored.receive(0, batch(allocator, SECOND));
      restored.flush();
    }
    assertThat(apply(sent)).isEqualTo(whole);
  }

  /**
   * A checkpoint of the code before raw operator state: each operator's state one OPERATOR entry of
   * the list (kind, position, the operator's byte array), built here as that code built them.
   */
  @Test
  void operatorStatesAsListEntriesOfAnOlderCheckpointRestore(BufferAllocator allocator)
      throws IOException {
    Map<Long, Long> whole = uninterrupted(allocator);
    List<List<Object>> sent = new ArrayList<>();
    List<byte[]> old = new ArrayList<>();
    try (StageDriver task = driver(allocator, sent)) {
      task.receive(0, batch(allocator, FIRST));
      task.flush();
      task.pipeline()
          .snapshotState()
          .forEach(
              (position, bytes) -> old.add(StageState.entry(StageState.OPERATOR, position, bytes)));
      old.addAll(task.snapshot());
    }
    assertThat(old).anyMatch(entry -> StageState.kind(entry) == StageState.OPERATOR);
    try (StageDriver restored = driver(allocator, sent)) {
      restored.restore(old, null);
      restored.receive(0, batch(allocator, SECOND));
      restored.flush();
    }
    assertThat(apply(sent)).isEqualTo(whole);
  }

  private static Map<Long, Long> uninterrupted(BufferAllocator allocator) {
    List<List<Object>> sent = new ArrayList<>();
    try (StageDriver task = driver(allocator, sent)) {
      task.receive(0, batch(allocator, FIRST));
      task.flush();
      task.receive(0, batch(allocator, SECOND));
      task.flush();
    }
    Map<Long, Long> counts = apply(sent);
    assertThat(counts).containsEntry(7L, 4L).containsEntry(2L, 3L).hasSize(6);
    return counts;
  }

  /** The changelog applied: the last +I or +U count of each key. */
  private static Map<Long, Long> apply(List<List<Object>> changelog) {
    Map<Long, Long> counts = new HashMap<>();
    for (List<Object> row : changelog) {
      byte kind = (Byte) row.get(row.size() - 1);
      if (kind == RowKind.INSERT.code() || kind == RowKind.UPDATE_AFTER.code()) {
        counts.put((Long) row.get(0), (Long) row.get(1));
      }
    }
    return counts;
  }

  private static StageTaskFactory countByValue() {
    return new StageTaskFactory() {
      @Override
      public TaskPipeline create(OperatorContext context, BatchSink output) {
        return TaskPipeline.build(
            TaskPipeline.operator(
                sink ->
                    new UpdatingAggregateOperator(
                        context,
                        SCHEMA,
                        AggregateMode.SINGLE,
                        new int[] {0},
                        List.of(AggregateCall.countStar("n")),
                        sink),
                TaskPipeline.input(0)),
            output);
      }

      @Override
      public Set<Integer> unboundedInputs() {
        return Set.of(0);
      }
    };
  }

  private static StageDriver driver(BufferAllocator allocator, List<List<Object>> sent) {
    StageDriver driver =
        new StageDriver(
            countByValue(),
            Long.MAX_VALUE,
            OutputSplit.none(),
            0,
            allocator,
            "stage state test",
            1,
            List.of(),
            record -> {
              try (record) {
                if (record.isData()) {
                  sent.addAll(BatchRows.rows(record.batch()));
                }
              }
            });
    driver.keepInputOrder();
    return driver;
  }

  private static BatchRecord batch(BufferAllocator allocator, long... values) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    BigIntVector vector = (BigIntVector) root.getVector(0);
    vector.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      vector.set(i, values[i]);
    }
    root.setRowCount(values.length);
    return BatchRecord.data(0, root);
  }
}
