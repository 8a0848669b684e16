package dev.quiver.flink.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.operators.sort.SortOperator;
import dev.quiver.operators.union.UnionOperator;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.util.ArrayList;
import java.util.List;
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
 * A STREAMING stage task's checkpoint and restore of its bounded inputs, without a cluster: a task
 * snapshots after a flush (as at a barrier), a new task restores the snapshot, and what the two
 * send downstream together is what one task without a failure would have sent.
 *
 * <pre>
 *   Union                             Union
 *     input 0: table (passes)           Sort ◄─ input 0: table (kept)
 *     input 1: stream                   input 1: stream
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
class OrderedInputsTest {
  private static final Schema SCHEMA =
      new Schema(List.of(new Field("v", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

  /** Union of input 0 (bounded; through a sort if {@code sorted}) and input 1 (a stream). */
  private static StageTaskFactory union(boolean sorted) {
    return new StageTaskFactory() {
      @Override
      public TaskPipeline create(OperatorContext context, BatchSink output) {
        TaskPipeline.Spec table =
            sorted
                ? TaskPipeline.operator(
                    sink -> new SortOperator(context, SCHEMA, List.of(SortKey.asc(0)), sink),
                    TaskPipeline.input(0))
                : TaskPipeline.input(0);
        return TaskPipeline.build(
            TaskPipeline.operator(
                sink -> new UnionOperator(context, SCHEMA, 2, sink), table, TaskPipeline.input(1)),
            output);
      }

      @Override
      public Set<Integer> unboundedInputs() {
        return Set.of(1);
      }

      @Override
      public boolean keepsRows(int input) {
        return sorted && input == 0;
      }
    };
  }

  @Test
  void aTableWhoseRowsPassedThroughIsNotSentAgainAfterARestore(BufferAllocator allocator) {
    List<Long> sent = new ArrayList<>();
    List<byte[]> state;
    try (StageDriver task = driver(union(false), allocator, sent)) {
      task.receive(0, batch(allocator, -1, -2, -3));
      task.receive(1, batch(allocator, 10));
      task.inputEnded(0);
      task.receive(1, batch(allocator, 11));
      task.flush();
      state = task.snapshot();
    }
    assertThat(sent).containsExactlyInAnyOrder(-1L, -2L, -3L, 10L, 11L);
    assertThat(state)
        .as("only that the pipeline started and that input 0 ended, none of its rows")
        .hasSize(2);

    try (StageDriver restored = driver(union(false), allocator, sent)) {
      restored.restore(state);
      restored.receive(1, batch(allocator, 12));
      restored.inputEnded(0); // a finished source ends again at once after a restore
      restored.receive(1, batch(allocator, 13));
      restored.flush();
    }
    assertThat(sent).containsExactlyInAnyOrder(-1L, -2L, -3L, 10L, 11L, 12L, 13L);
  }

  @Test
  void aTableThatIsStillArrivingContinuesAfterARestore(BufferAllocator allocator) {
    List<Long> sent = new ArrayList<>();
    List<byte[]> state;
    try (StageDriver task = driver(union(false), allocator, sent)) {
      task.receive(0, batch(allocator, -1, -2));
      task.flush();
      state = task.snapshot();
    }
    try (StageDriver restored = driver(union(false), allocator, sent)) {
      restored.restore(state);
      restored.receive(0, batch(allocator, -3)); // the source resumes after the rows it sent
      restored.inputEnded(0);
      restored.receive(1, batch(allocator, 10));
      restored.flush();
    }
    assertThat(sent).containsExactlyInAnyOrder(-1L, -2L, -3L, 10L);
  }

  /**
   * The sort keeps the table's rows until the table ends (and the stream waits for it): a
   * checkpoint before that holds them (the restored sort sorts all of them), one after it sends
   * none of them again.
   */
  @Test
  void rowsKeptInTheTaskAreRebuiltAndNotSentAgain(BufferAllocator allocator) {
    List<Long> sent = new ArrayList<>();
    List<byte[]> before;
    try (StageDriver task = driver(union(true), allocator, sent)) {
      task.receive(0, batch(allocator, -2, -5));
      task.receive(1, batch(allocator, 10));
      task.flush();
      before = task.snapshot();
    }
    assertThat(sent).isEmpty();

    List<byte[]> after;
    try (StageDriver restored = driver(union(true), allocator, sent)) {
      restored.restore(before);
      restored.receive(0, batch(allocator, -1));
      restored.inputEnded(0);
      restored.flush();
      after = restored.snapshot();
    }
    assertThat(sent).containsExactly(-5L, -2L, -1L, 10L);

    try (StageDriver again = driver(union(true), allocator, sent)) {
      again.restore(after); // replays the table into a new sort, which emits it: dropped
      again.receive(1, batch(allocator, 11));
      again.flush();
    }
    assertThat(sent).containsExactly(-5L, -2L, -1L, 10L, 11L);
  }

  /**
   * VALUES (-7, -8) before a stream: the pipeline runs them when it starts (at the stream's first
   * batch), and a restored task from a checkpoint after that does not send them again.
   */
  @Test
  void valuesThatRanBeforeACheckpointAreNotSentAgain(BufferAllocator allocator) {
    List<Long> sent = new ArrayList<>();
    List<byte[]> state;
    try (StageDriver task = driver(valuesThen(false), allocator, sent)) {
      task.receive(0, batch(allocator, 10));
      task.flush();
      state = task.snapshot();
    }
    assertThat(sent).containsExactlyInAnyOrder(-7L, -8L, 10L);

    try (StageDriver restored = driver(valuesThen(false), allocator, sent)) {
      restored.restore(state);
      restored.receive(0, batch(allocator, 11));
      restored.flush();
    }
    assertThat(sent).containsExactlyInAnyOrder(-7L, -8L, 10L, 11L);
  }

  /** And a checkpoint taken before they ran restores a task that runs them. */
  @Test
  void valuesThatHadNotRunAtACheckpointRunAfterTheRestore(BufferAllocator allocator) {
    List<Long> sent = new ArrayList<>();
    List<byte[]> state;
    try (StageDriver task = driver(valuesThen(false), allocator, sent)) {
      task.flush();
      state = task.snapshot();
    }
    assertThat(sent).isEmpty();

    try (StageDriver restored = driver(valuesThen(false), allocator, sent)) {
      restored.restore(state);
      restored.receive(0, batch(allocator, 10));
      restored.flush();
    }
    assertThat(sent).containsExactlyInAnyOrder(-7L, -8L, 10L);
  }

  /**
   * VALUES kept in the task (sorted with a table that is still arriving at the checkpoint): the
   * restored task runs them again into its new sort, which emits them once with the table's rows.
   */
  @Test
  void valuesKeptInTheTaskAreRebuiltAfterARestore(BufferAllocator allocator) {
    List<Long> sent = new ArrayList<>();
    List<byte[]> state;
    try (StageDriver task = driver(valuesThen(true), allocator, sent)) {
      task.receive(0, batch(allocator, -2));
      task.flush();
      state = task.snapshot();
    }
    assertThat(sent).isEmpty();

    try (StageDriver restored = driver(valuesThen(true), allocator, sent)) {
      restored.restore(state);
      restored.receive(0, batch(allocator, -1));
      restored.inputEnded(0);
      restored.receive(1, batch(allocator, 10));
      restored.flush();
    }
    assertThat(sent).containsExactly(-8L, -7L, -2L, -1L, 10L);
  }

  /**
   * {@code Union[VALUES (-7, -8), input 0 (a stream)]}, or, if {@code sorted}, {@code
   * Union[Sort[Union[VALUES (-7, -8), input 0 (a table)]], input 1 (a stream)]}.
   */
  private static StageTaskFactory valuesThen(boolean sorted) {
    return new StageTaskFactory() {
      @Override
      public TaskPipeline create(OperatorContext context, BatchSink output) {
        TaskPipeline.Spec values =
            TaskPipeline.source(
                sink ->
                    new TaskPipeline.Source() {
                      @Override
                      public void run() {
                        sink.accept(batch(context.allocator(), -7, -8).batch());
                      }

                      @Override
                      public void close() {}
                    });
        TaskPipeline.Spec union =
            TaskPipeline.operator(
                sink -> new UnionOperator(context, SCHEMA, 2, sink), values, TaskPipeline.input(0));
        if (!sorted) {
          return TaskPipeline.build(union, output);
        }
        TaskPipeline.Spec sort =
            TaskPipeline.operator(
                sink -> new SortOperator(context, SCHEMA, List.of(SortKey.asc(0)), sink), union);
        return TaskPipeline.build(
            TaskPipeline.operator(
                sink -> new UnionOperator(context, SCHEMA, 2, sink), sort, TaskPipeline.input(1)),
            output);
      }

      @Override
      public Set<Integer> unboundedInputs() {
        return sorted ? Set.of(1) : Set.of(0);
      }

      @Override
      public boolean keepsRows(int input) {
        return sorted && input == 0;
      }
    };
  }

  private static StageDriver driver(
      StageTaskFactory factory, BufferAllocator allocator, List<Long> sent) {
    StageDriver driver =
        new StageDriver(
            factory,
            Long.MAX_VALUE,
            OutputSplit.none(),
            0,
            allocator,
            "ordered inputs test",
            1,
            List.of(),
            record -> {
              try (record) {
                if (record.isData()) {
                  BatchRows.rows(record.batch()).forEach(row -> sent.add((Long) row.get(0)));
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
