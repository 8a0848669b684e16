package dev.quiver.operators.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.aggregate.WindowAggregateOperator;
import dev.quiver.operators.aggregate.WindowTesting;
import dev.quiver.operators.aggregate.WindowTesting.Shape;
import dev.quiver.operators.aggregate.WindowTesting.Step;
import dev.quiver.operators.join.HashJoinOperator;
import dev.quiver.operators.limit.LimitOperator;
import dev.quiver.operators.scalar.FilterOperator;
import dev.quiver.operators.union.UnionOperator;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class TaskPipelineTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              RandomBatches.field("k", new ArrowType.Int(64, true)),
              RandomBatches.field("s", ArrowType.Utf8.INSTANCE)));

  /** HashJoin(build = input 0, probe = Union(input 1, input 2)). */
  private static TaskPipeline.Spec joinOverUnion(OperatorContext context) {
    return TaskPipeline.operator(
        sink ->
            new HashJoinOperator(
                context,
                JoinKind.of(JoinType.INNER),
                SCHEMA,
                new int[] {0},
                SCHEMA,
                new int[] {0},
                null,
                sink),
        TaskPipeline.input(0),
        TaskPipeline.operator(
            sink -> new UnionOperator(context, SCHEMA, 2, sink),
            TaskPipeline.input(1),
            TaskPipeline.input(2)));
  }

  @Test
  void pushesInputsThroughTheOperatorTreeInDepthFirstOrder(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    RandomBatches random = new RandomBatches(1).distinctValues(20).nullFraction(0.1);
    List<List<List<Object>>> inputs = new ArrayList<>();
    List<List<Object>> output = new ArrayList<>();
    try (TaskPipeline pipeline =
        TaskPipeline.build(
            TaskPipeline.operator(
                sink -> new LimitOperator(context, 0, LimitOperator.ALL, sink),
                joinOverUnion(context)),
            batch -> {
              try (batch) {
                output.addAll(BatchRows.rows(batch));
              }
            })) {
      assertThat(pipeline.inputCount()).isEqualTo(3);
      assertThat(pipeline.inputOrder()).containsExactly(0, 1, 2);
      for (int input : pipeline.inputOrder()) {
        List<List<Object>> rows = new ArrayList<>();
        for (int b = 0; b < 3; b++) {
          VectorSchemaRoot batch = random.batch(SCHEMA, 50, allocator);
          rows.addAll(BatchRows.rows(batch));
          pipeline.add(input, batch);
        }
        inputs.add(rows);
        assertThat(pipeline.isFinished()).isFalse();
        pipeline.finish(input);
      }
      assertThat(pipeline.isFinished()).isTrue();
    }
    // Reference: every probe row (inputs 1 and 2) joined with every build row of an equal key.
    Map<Object, List<List<Object>>> build = new HashMap<>();
    inputs.get(0).stream()
        .filter(row -> row.get(0) != null)
        .forEach(row -> build.computeIfAbsent(row.get(0), k -> new ArrayList<>()).add(row));
    List<List<Object>> expected = new ArrayList<>();
    for (List<List<Object>> probe : inputs.subList(1, 3)) {
      for (List<Object> row : probe) {
        for (List<Object> match : build.getOrDefault(row.get(0), List.of())) {
          List<Object> joined = new ArrayList<>(row);
          joined.addAll(match);
          expected.add(joined);
        }
      }
    }
    assertThat(output).hasSizeGreaterThan(0).containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * A flush empties every operator's held rows into the sink, upstream first: the join's pending
   * output reaches the filter before the filter flushes (the other way round it would stay there).
   */
  @Test
  void flushEmptiesTheHeldRowsOfEveryOperatorUpstreamFirst(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator).withTargetBatchRows(1000);
    RandomBatches random = new RandomBatches(3).distinctValues(5);
    List<List<Object>> output = new ArrayList<>();
    try (TaskPipeline pipeline =
        TaskPipeline.build(
            TaskPipeline.operator(
                sink ->
                    new FilterOperator(
                        context,
                        Exprs.call(ScalarFunction.IS_NOT_NULL, Exprs.col(0, SqlType.BIGINT)),
                        sink),
                TaskPipeline.operator(
                    sink ->
                        new HashJoinOperator(
                            context,
                            JoinKind.of(JoinType.INNER),
                            SCHEMA,
                            new int[] {0},
                            SCHEMA,
                            new int[] {0},
                            null,
                            sink),
                    TaskPipeline.input(0),
                    TaskPipeline.input(1))),
            batch -> {
              try (batch) {
                output.addAll(BatchRows.rows(batch));
              }
            })) {
      VectorSchemaRoot build = random.batch(SCHEMA, 20, allocator);
      Map<Object, Integer> keys = new HashMap<>();
      BatchRows.rows(build).stream()
          .filter(row -> row.get(0) != null) // a NULL key matches nothing
          .forEach(row -> keys.merge(row.get(0), 1, Integer::sum));
      pipeline.add(0, build);
      pipeline.finish(0);
      VectorSchemaRoot probe = random.batch(SCHEMA, 10, allocator);
      int matches =
          BatchRows.rows(probe).stream().mapToInt(row -> keys.getOrDefault(row.get(0), 0)).sum();
      assertThat(matches).as("the probe batch matches").isPositive().isLessThan(500);
      pipeline.add(1, probe);
      assertThat(output).as("held for fuller batches").isEmpty();
      pipeline.flush();
      assertThat(output).hasSize(matches);
      pipeline.finish(1);
      assertThat(output).hasSize(matches);
    }
  }

  /**
   * Holds its batches until a watermark, logging every call; its state is the number of rows it
   * holds (enough to tell the operators of a pipeline apart in a snapshot).
   */
  private static final class Holding implements Operator {
    private final String name;
    private final List<String> log;
    private final BatchSink sink;
    private final List<VectorSchemaRoot> held = new ArrayList<>();
    private int restoredRows = -1;

    Holding(String name, List<String> log, BatchSink sink) {
      this.name = name;
      this.log = log;
      this.sink = sink;
    }

    @Override
    public int inputs() {
      return 1;
    }

    @Override
    public void add(int input, VectorSchemaRoot batch) {
      log.add(name + " add " + batch.getRowCount());
      held.add(batch);
    }

    @Override
    public void finish(int input) {
      watermark(Long.MAX_VALUE);
    }

    @Override
    public void watermark(long millis) {
      log.add(name + " watermark " + millis);
      held.forEach(sink::accept);
      held.clear();
    }

    @Override
    public boolean isStateful() {
      return true;
    }

    @Override
    public byte[] snapshotState() {
      int rows = held.stream().mapToInt(VectorSchemaRoot::getRowCount).sum();
      return (name + ":" + rows).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void restoreState(byte[] state) {
      String text = new String(state, StandardCharsets.UTF_8);
      assertThat(text).startsWith(name + ":");
      restoredRows = Integer.parseInt(text.substring(name.length() + 1));
    }

    @Override
    public void close() {
      held.forEach(VectorSchemaRoot::close);
      held.clear();
    }

    @Override
    public String toString() {
      return "Holding[" + name + "]";
    }
  }

  /** Holding[top] over a filter (stateless) over Holding[bottom] over input 0. */
  private static TaskPipeline.Spec holdingChain(
      OperatorContext context, List<String> log, Holding[] made) {
    return TaskPipeline.operator(
        sink -> made[0] = new Holding("top", log, sink),
        TaskPipeline.operator(
            sink ->
                new FilterOperator(
                    context,
                    Exprs.call(ScalarFunction.IS_NOT_NULL, Exprs.col(0, SqlType.BIGINT)),
                    sink),
            TaskPipeline.operator(
                sink -> made[1] = new Holding("bottom", log, sink), TaskPipeline.input(0))));
  }

  /**
   * A watermark passes each operator after every operator that feeds it: what the bottom operator
   * emits for the watermark (through the filter, which flushes its held rows at the watermark)
   * reaches the top one before the top one's watermark.
   */
  @Test
  void watermarkPassesEachOperatorAfterTheOperatorsFeedingIt(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator).withTargetBatchRows(1000);
    List<String> log = new ArrayList<>();
    List<List<Object>> output = new ArrayList<>();
    try (TaskPipeline pipeline =
        TaskPipeline.build(
            holdingChain(context, log, new Holding[2]),
            batch -> {
              try (batch) {
                output.addAll(BatchRows.rows(batch));
              }
            })) {
      VectorSchemaRoot batch = new RandomBatches(4).nullFraction(0).batch(SCHEMA, 30, allocator);
      pipeline.add(0, batch);
      assertThat(log).containsExactly("bottom add 30");
      pipeline.watermark(77);
      assertThat(log)
          .containsExactly(
              "bottom add 30", "bottom watermark 77", "top add 30", "top watermark 77");
      assertThat(output).hasSize(30);
      pipeline.finish(0);
    }
  }

  @Test
  void snapshotKeysTheStatesByPositionAndRestoreMatchesThemUp(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    Map<Integer, byte[]> states;
    try (TaskPipeline pipeline =
        TaskPipeline.build(
            holdingChain(context, new ArrayList<>(), new Holding[2]), VectorSchemaRoot::close)) {
      pipeline.add(0, new RandomBatches(5).batch(SCHEMA, 12, allocator));
      states = pipeline.snapshotState();
    }
    assertThat(states).containsOnlyKeys(0, 2); // the filter (1) keeps no state
    assertThat(new String(states.get(2), StandardCharsets.UTF_8)).isEqualTo("bottom:12");
    Holding[] made = new Holding[2];
    try (TaskPipeline restored =
        TaskPipeline.build(
            holdingChain(context, new ArrayList<>(), made), VectorSchemaRoot::close)) {
      restored.restoreState(states);
      assertThat(made[0].restoredRows).isZero();
      assertThat(made[1].restoredRows).isEqualTo(12);
      restored.add(0, new RandomBatches(6).batch(SCHEMA, 3, allocator));
      assertThatThrownBy(() -> restored.restoreState(states))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before its first input");
    }
    try (TaskPipeline other =
        TaskPipeline.build(
            TaskPipeline.operator(
                sink -> new Holding("top", new ArrayList<>(), sink), TaskPipeline.input(0)),
            VectorSchemaRoot::close)) {
      assertThatThrownBy(() -> other.restoreState(states))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("positions [0, 2]")
          .hasMessageContaining("at [0]");
    }
    try (TaskPipeline stateless =
        TaskPipeline.build(joinOverUnion(context), VectorSchemaRoot::close)) {
      assertThat(stateless.snapshotState()).isEmpty();
      stateless.restoreState(Map.of());
    }
  }

  /**
   * A PARTIAL window aggregate under a FINAL one: the watermark reaches the FINAL after the states
   * the PARTIAL emits for it (else they would be late there), and a pipeline snapshot taken
   * half-way and restored into a new pipeline gives the output of the run that was never
   * interrupted.
   */
  @Test
  void windowAggregatesThroughWatermarksAndARestore(BufferAllocator allocator) throws IOException {
    List<Step> steps =
        WindowTesting.stream(new Shape(70, 1_000_000, 1_000_000, 20, 100, 300, 0.05, 0.01, 4));
    OperatorContext context = OperatorContext.of(allocator).withTargetBatchRows(64);
    WindowAggregateOperator[] made = new WindowAggregateOperator[2];
    Map<List<Object>, Integer> whole = new HashMap<>();
    try (TaskPipeline pipeline = TaskPipeline.build(windowChain(context, made), counting(whole))) {
      feed(pipeline, steps, 0, steps.size(), allocator);
      assertThat(made[1].lateRows()).isPositive();
      assertThat(made[0].lateRows()).as("no state is late at the final").isZero();
    }
    assertThat(whole).isNotEmpty();
    Map<List<Object>, Integer> pieces = new HashMap<>();
    int cut = steps.size() / 2;
    Map<Integer, byte[]> states;
    try (TaskPipeline pipeline = TaskPipeline.build(windowChain(context, made), counting(pieces))) {
      feed(pipeline, steps, 0, cut, allocator);
      pipeline.flush();
      states = pipeline.snapshotState();
    }
    assertThat(states).containsOnlyKeys(0, 1);
    try (TaskPipeline pipeline = TaskPipeline.build(windowChain(context, made), counting(pieces))) {
      pipeline.restoreState(states);
      feed(pipeline, steps, cut, steps.size(), allocator);
    }
    assertThat(pieces).isEqualTo(whole);
    // The same through the task's state stream, as a Flink task writes its raw operator state.
    Map<List<Object>, Integer> streamed = new HashMap<>();
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    try (TaskPipeline pipeline =
        TaskPipeline.build(windowChain(context, made), counting(streamed))) {
      feed(pipeline, steps, 0, cut, allocator);
      pipeline.flush();
      pipeline.snapshotState(stream);
    }
    try (TaskPipeline pipeline =
        TaskPipeline.build(windowChain(context, made), counting(streamed))) {
      pipeline.restoreState(new ByteArrayInputStream(stream.toByteArray()));
      feed(pipeline, steps, cut, steps.size(), allocator);
    }
    assertThat(streamed).isEqualTo(whole);
    assertThat(context.budget().used()).isZero();
  }

  /**
   * The task's state stream frames each stateful operator's state, whether the operator writes a
   * stream or an array (the default adapter): each restores from its own state and no further, and
   * a stream of another plan is refused before any operator reads.
   */
  @Test
  void stateStreamFramesEachOperatorsState(BufferAllocator allocator) throws IOException {
    OperatorContext context = OperatorContext.of(allocator);
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    try (TaskPipeline pipeline =
        TaskPipeline.build(
            holdingChain(context, new ArrayList<>(), new Holding[2]), VectorSchemaRoot::close)) {
      assertThat(pipeline.hasState()).isTrue();
      pipeline.add(0, new RandomBatches(5).batch(SCHEMA, 12, allocator));
      pipeline.snapshotState(stream);
      stream.write(new byte[] {1, 2, 3}); // what follows the task's state in its stream
    }
    byte[] bytes = stream.toByteArray();
    Holding[] made = new Holding[2];
    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
    try (TaskPipeline restored =
        TaskPipeline.build(
            holdingChain(context, new ArrayList<>(), made), VectorSchemaRoot::close)) {
      restored.restoreState(in);
      assertThat(made[0].restoredRows).isZero();
      assertThat(made[1].restoredRows).isEqualTo(12);
    }
    assertThat(in.readAllBytes()).as("read to its end, no further").containsExactly(1, 2, 3);
    try (TaskPipeline other =
        TaskPipeline.build(
            TaskPipeline.operator(
                sink -> new Holding("top", new ArrayList<>(), sink), TaskPipeline.input(0)),
            VectorSchemaRoot::close)) {
      assertThatThrownBy(() -> other.restoreState(new ByteArrayInputStream(bytes)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("positions [0, 2]")
          .hasMessageContaining("at [0]");
    }
    try (TaskPipeline stateless =
        TaskPipeline.build(joinOverUnion(context), VectorSchemaRoot::close)) {
      assertThat(stateless.hasState()).isFalse();
      assertThatThrownBy(() -> stateless.restoreState(new ByteArrayInputStream(new byte[8])))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not a task pipeline state");
    }
  }

  /** FINAL (made[0]) over PARTIAL (made[1]) over input 0, grouped by window and key. */
  private static TaskPipeline.Spec windowChain(
      OperatorContext context, WindowAggregateOperator[] made) {
    int[] keys = {WindowTesting.START, WindowTesting.END, WindowTesting.K};
    Schema states =
        HashAggregateOperator.outputSchema(
            WindowTesting.SCHEMA, AggregateMode.PARTIAL, keys, WindowTesting.CALLS);
    return TaskPipeline.operator(
        sink ->
            made[0] =
                new WindowAggregateOperator(
                    context,
                    states,
                    AggregateMode.FINAL,
                    keys,
                    WindowTesting.CALLS,
                    WindowTesting.END,
                    sink),
        TaskPipeline.operator(
            sink ->
                made[1] =
                    new WindowAggregateOperator(
                        context,
                        WindowTesting.SCHEMA,
                        AggregateMode.PARTIAL,
                        keys,
                        WindowTesting.CALLS,
                        WindowTesting.END,
                        sink),
            TaskPipeline.input(0)));
  }

  /** Steps {@code [from, to)} into stage input 0, finishing it after the last step. */
  private static void feed(
      TaskPipeline pipeline, List<Step> steps, int from, int to, BufferAllocator allocator) {
    for (Step step : steps.subList(from, to)) {
      if (step.isWatermark()) {
        pipeline.watermark(step.watermark());
      } else {
        pipeline.add(0, WindowTesting.batch(step.rows(), allocator));
      }
    }
    if (to == steps.size()) {
      pipeline.finish(0);
    }
  }

  private static BatchSink counting(Map<List<Object>, Integer> rows) {
    return batch -> {
      try (batch) {
        BatchRows.rows(batch).forEach(row -> rows.merge(row, 1, Integer::sum));
      }
    };
  }

  @Test
  void closesEveryOperatorWhenClosedEarly(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    try (TaskPipeline pipeline =
        TaskPipeline.build(joinOverUnion(context), VectorSchemaRoot::close)) {
      pipeline.add(0, new RandomBatches(2).batch(SCHEMA, 100, allocator));
      assertThat(pipeline.toString())
          .contains("HashJoin")
          .contains("Union[inputs=2]")
          .contains("Input[0]");
    }
  }

  @Test
  void rejectsBadInputNumbering(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    assertThatThrownBy(
            () ->
                TaskPipeline.build(
                    TaskPipeline.operator(
                        sink -> new UnionOperator(context, SCHEMA, 2, sink),
                        TaskPipeline.input(0),
                        TaskPipeline.input(2)),
                    VectorSchemaRoot::close))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("numbered");
    assertThatThrownBy(
            () ->
                TaskPipeline.build(
                    TaskPipeline.operator(
                        sink -> new UnionOperator(context, SCHEMA, 3, sink), TaskPipeline.input(0)),
                    VectorSchemaRoot::close))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3 inputs");
  }
}
