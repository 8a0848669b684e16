package dev.quiver.operators.exec;

import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.keyrange.KeyRange;
import dev.quiver.operators.keyrange.TaskKeyRanges;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.values.ValuesOperator;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.StageInput;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.node.Window;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.plan.window.WindowTopN;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Stage plans run as single task pipelines, without Flink: sources in every position of the input
 * order, residual join conditions through the expression engine, and the output schema contract.
 */
@ExtendWith(ArrowLeakCheck.class)
class PlanPipelinesTest {
  private static final RowSchema SCHEMA =
      RowSchema.of(
          Column.notNull("id", SqlType.BIGINT),
          Column.of("k", SqlType.BIGINT),
          Column.of("s", SqlType.VARCHAR));

  private static List<List<Object>> rows(int from, int count) {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = from; id < from + count; id++) {
      Long key = id % 7 == 0 ? null : id % 5;
      rows.add(Arrays.asList(id, key, key == null ? null : "s" + key));
    }
    return rows;
  }

  private static StageInput input(int stage) {
    return new StageInput(stage, InputMode.FORWARD, SCHEMA, Partitioning.single(), List.of());
  }

  /** Runs {@code plan}: input i gets {@code inputs.get(i)}, in the pipeline's input order. */
  private static List<List<Object>> run(
      PlanNode plan, List<List<List<Object>>> inputs, BufferAllocator allocator) {
    OperatorContext context = new OperatorContext(allocator, MemoryBudget.unlimited("test"), 64);
    List<List<Object>> output = new ArrayList<>();
    try (TaskPipeline pipeline =
        PlanPipelines.build(
            plan,
            context,
            batch -> {
              try (batch) {
                assertThat(batch.getSchema()).isEqualTo(plan.arrowSchema());
                output.addAll(BatchRows.rows(batch));
              }
            })) {
      assertThat(pipeline.inputCount()).isEqualTo(inputs.size());
      pipeline.start();
      for (int input : pipeline.inputOrder()) {
        new ValuesOperator(
                context, SCHEMA.toArrow(), inputs.get(input), batch -> pipeline.add(input, batch))
            .start();
        pipeline.finish(input);
      }
      assertThat(pipeline.isFinished()).isTrue();
    }
    return output;
  }

  @Test
  void valuesOnlyStageFinishesAtStart(BufferAllocator allocator) {
    PlanBuilder a = PlanBuilder.values(SCHEMA, rows(0, 150));
    PlanBuilder b = PlanBuilder.values(SCHEMA, rows(150, 100));
    PlanNode plan =
        a.union(b)
            .aggregate(
                AggregateMode.SINGLE,
                keys(1),
                a.call(AggregateFunction.SUM, 0, "ids"),
                a.call(AggregateFunction.COUNT, 2, "strings"))
            .build();
    Map<Object, List<Object>> expected = new HashMap<>();
    for (List<Object> row : rows(0, 250)) {
      List<Object> acc =
          expected.computeIfAbsent(row.get(1), k -> new ArrayList<>(List.of(0L, 0L)));
      acc.set(0, (Long) acc.get(0) + (Long) row.get(0));
      acc.set(1, (Long) acc.get(1) + (row.get(2) == null ? 0 : 1));
    }
    Map<Object, List<Object>> actual = new HashMap<>();
    for (List<Object> row : run(plan, List.of(), allocator)) {
      actual.put(row.get(0), List.of(row.get(1), row.get(2)));
    }
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void expandUnderASeededAggregateComputesEverySet(BufferAllocator allocator) {
    PlanBuilder expand =
        PlanBuilder.from(input(0)).expand(keys(1, 2), List.of(keys(1, 2), keys(1), keys()));
    PlanNode plan =
        expand
            .aggregate(
                AggregateMode.SINGLE,
                keys(1, 2, 3),
                List.of(AggregateCall.countStar("n"), expand.call(AggregateFunction.SUM, 0, "ids")),
                List.of(3L))
            .build();
    // Over no rows only the grand total (grouping id 3) has its row.
    assertThat(run(plan, List.of(List.of()), allocator))
        .containsExactly(Arrays.asList(null, null, 3L, 0L, null));
    List<List<Object>> output = run(plan, List.of(rows(0, 100)), allocator);
    assertThat(output)
        .filteredOn(row -> row.get(2).equals(3L))
        .containsExactly(Arrays.asList(null, null, 3L, 100L, 4950L));
    // k: 5 values and NULL; (k, s): the same 6 groups, s follows k.
    assertThat(output).filteredOn(row -> row.get(2).equals(1L)).hasSize(6);
    assertThat(output).filteredOn(row -> row.get(2).equals(0L)).hasSize(6);
  }

  @Test
  void sourcesRunInInputOrder(BufferAllocator allocator) {
    // Union(input 0, Values, input 1): the values come after input 0 ends, before input 1.
    PlanNode plan =
        PlanBuilder.from(input(0))
            .union(PlanBuilder.values(SCHEMA, rows(1000, 3)), PlanBuilder.from(input(1)))
            .build();
    List<List<Object>> output = run(plan, List.of(rows(0, 2), rows(2000, 2)), allocator);
    assertThat(output.stream().map(row -> row.get(0)))
        .containsExactly(0L, 1L, 1000L, 1001L, 1002L, 2000L, 2001L);
  }

  @Test
  void sourcesAfterAnInputThatNeverEndsRunAtTheStart(BufferAllocator allocator) {
    // Union(input 0 (a stream), Values): the values do not wait for the stream's end.
    PlanNode plan =
        PlanBuilder.from(input(0)).union(PlanBuilder.values(SCHEMA, rows(1000, 2))).build();
    OperatorContext context = new OperatorContext(allocator, MemoryBudget.unlimited("test"), 64);
    List<List<Object>> output = new ArrayList<>();
    try (TaskPipeline pipeline =
        PlanPipelines.build(
            plan,
            context,
            batch -> {
              try (batch) {
                output.addAll(BatchRows.rows(batch));
              }
            })) {
      pipeline.neverEnds(0);
      pipeline.start();
      assertThat(output.stream().map(row -> row.get(0))).containsExactly(1000L, 1001L);
      new ValuesOperator(context, SCHEMA.toArrow(), rows(0, 1), batch -> pipeline.add(0, batch))
          .start();
      assertThat(output).hasSize(3);
      pipeline.finish(0); // a stream that ends after all (a stopped job): nothing runs twice
      assertThat(output).hasSize(3);
      assertThat(pipeline.isFinished()).isTrue();
      assertThatThrownBy(() -> pipeline.neverEnds(0)).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void valuesBuildSideIsCompleteBeforeTheProbeInput(BufferAllocator allocator) {
    PlanBuilder build = PlanBuilder.values(SCHEMA, rows(0, 20));
    PlanNode plan =
        PlanBuilder.from(input(0))
            .hashJoin(JoinType.INNER, build, keys(1), keys(1), JoinDistribution.PARTITIONED)
            .build();
    List<List<Object>> output = run(plan, List.of(rows(100, 300)), allocator);
    assertThat(output).hasSize(expectedJoin(rows(100, 300), rows(0, 20), false).size());
  }

  @Test
  void aJoinPublishesItsBuildKeysRangeForTheProbeScanBeforeTheFirstProbeBatch(
      BufferAllocator allocator) {
    TableSource facts =
        new TableSource("facts", SCHEMA, List.of(SplitUnit.file("facts/p.parquet", 1000, 300)));
    // build keys k of rows 0..19: 0..4 and NULL
    PlanNode plan =
        PlanBuilder.scan(facts, 1)
            .hashJoin(
                JoinType.INNER,
                PlanBuilder.values(SCHEMA, rows(0, 20)),
                keys(1),
                keys(1),
                JoinDistribution.BROADCAST)
            .build();
    OperatorContext context = new OperatorContext(allocator, MemoryBudget.unlimited("test"), 64);
    try (TaskKeyRanges.Scope task = TaskKeyRanges.open();
        TaskPipeline pipeline = PlanPipelines.build(plan, context, batch -> batch.close())) {
      assertThat(TaskKeyRanges.ranges("facts")).isEmpty();
      pipeline.start(); // the VALUES build side is complete now
      assertThat(TaskKeyRanges.ranges("facts")).isEqualTo(Map.of(1, new KeyRange(0, 4)));
      pipeline.finish(0);
    }
    assertThat(TaskKeyRanges.ranges("facts")).isEmpty();
  }

  @Test
  void residualConditionsGoThroughTheExpressionEngine(BufferAllocator allocator) {
    // probe LEFT JOIN build ON probe.k = build.k AND probe.id > build.id + 150
    PlanBuilder probe = PlanBuilder.from(input(0));
    PlanBuilder build = PlanBuilder.from(input(1));
    Expr residual =
        call(
            ScalarFunction.GREATER_THAN,
            probe.col(0),
            call(ScalarFunction.ADD, col(3, SqlType.BIGINT), lit(150L)));
    PlanNode hash =
        probe
            .hashJoin(
                JoinKind.of(JoinType.LEFT),
                build,
                keys(1),
                keys(1),
                residual,
                JoinDistribution.PARTITIONED)
            .build();
    PlanNode loop =
        probe
            .nestedLoopJoin(
                JoinType.LEFT,
                build,
                call(
                    ScalarFunction.AND,
                    call(ScalarFunction.EQUAL, probe.col(1), col(4, SqlType.BIGINT)),
                    residual))
            .build();
    List<List<Object>> probeRows = rows(0, 300);
    List<List<Object>> buildRows = rows(0, 200);
    List<List<Object>> expected = expectedJoin(probeRows, buildRows, true);
    // Stage input numbering is depth first: build (child 0) is input 0, probe input 1.
    assertThat(run(hash, List.of(buildRows, probeRows), allocator))
        .containsExactlyInAnyOrderElementsOf(expected);
    assertThat(run(loop, List.of(buildRows, probeRows), allocator))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** probe [LEFT] JOIN build ON k = k (AND probe.id > build.id + 150 when {@code residual}). */
  private static List<List<Object>> expectedJoin(
      List<List<Object>> probe, List<List<Object>> build, boolean residual) {
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> p : probe) {
      boolean matched = false;
      for (List<Object> b : build) {
        if (p.get(1) != null
            && p.get(1).equals(b.get(1))
            && (!residual || (Long) p.get(0) > (Long) b.get(0) + 150)) {
          List<Object> joined = new ArrayList<>(p);
          joined.addAll(b);
          expected.add(joined);
          matched = true;
        }
      }
      if (residual && !matched) {
        List<Object> padded = new ArrayList<>(p);
        padded.addAll(Arrays.asList(null, null, null));
        expected.add(padded);
      }
    }
    return expected;
  }

  /** id BIGINT, price BIGINT, window_end TIMESTAMP. */
  private static final RowSchema WINDOWED =
      RowSchema.of(
          Column.notNull("id", SqlType.BIGINT),
          Column.of("price", SqlType.BIGINT),
          Column.of("window_end", SqlType.TIMESTAMP));

  /** ROW_NUMBER per window end (#2) by price DESC, over its sort and a stage input of WINDOWED. */
  private static Window rowNumbersPerWindow() {
    StageInput input =
        new StageInput(0, InputMode.FORWARD, WINDOWED, Partitioning.single(), List.of());
    return ((Window)
            PlanBuilder.from(input)
                .sort(SortKey.asc(2), SortKey.desc(1))
                .window(
                    List.of(2),
                    List.of(SortKey.desc(1)),
                    WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"))
                .build())
        .withWindowEnd(2);
  }

  /** A sink that adds the rows of each batch to {@code output} and closes the batch. */
  private static BatchSink collect(List<List<Object>> output) {
    return batch -> {
      try (batch) {
        output.addAll(BatchRows.rows(batch));
      }
    };
  }

  /**
   * A window function partitioned by a window end, over the sort the planner put below it, runs as
   * one per-window operator: nothing before the watermark completes a window, then that window's
   * rows numbered; the rest at the end of the input.
   */
  @Test
  void aWindowedWindowAndItsSortRunPerWindow(BufferAllocator allocator) {
    LocalDateTime first = LocalDateTime.of(2024, 1, 1, 0, 0, 10);
    LocalDateTime second = first.plusSeconds(10);
    PlanNode plan = rowNumbersPerWindow();
    OperatorContext context = new OperatorContext(allocator, MemoryBudget.unlimited("test"), 64);
    List<List<Object>> output = new ArrayList<>();
    try (TaskPipeline pipeline = PlanPipelines.build(plan, context, collect(output))) {
      assertThat(pipeline.toString())
          .contains(
              "PerWindow[window end=#2, Window[partition=[#2], order=[#1 DESC NULLS FIRST],"
                  + " calls=[row_number() AS rn]] ← Sort[#2 ASC NULLS LAST, #1 DESC NULLS FIRST]]");
      List<List<Object>> rows =
          List.of(
              Arrays.asList(1L, 5L, first),
              Arrays.asList(2L, 7L, second),
              Arrays.asList(3L, 9L, first),
              Arrays.asList(4L, 1L, second));
      new ValuesOperator(context, WINDOWED.toArrow(), rows, batch -> pipeline.add(0, batch))
          .start();
      assertThat(output).isEmpty();
      pipeline.watermark(first.toInstant(ZoneOffset.UTC).toEpochMilli() - 1);
      assertThat(output)
          .containsExactly(Arrays.asList(3L, 9L, first, 1L), Arrays.asList(1L, 5L, first, 2L));
      assertThat(pipeline.idle()).isFalse(); // window 2 waits
      assertThat(pipeline.snapshotState()).hasSize(1);
      pipeline.finish(0);
      assertThat(output.subList(2, 4))
          .containsExactly(Arrays.asList(2L, 7L, second, 1L), Arrays.asList(4L, 1L, second, 2L));
    }
  }

  /**
   * A window top-N ({@code keep row_number() <= 1}) prunes each window's rows as they come: with a
   * target of 2 rows the values come in batches of 2, 2 and 1 rows, and the window's 4 rows after
   * the second batch are pruned to its top row (id 2, price NULL: DESC puts NULLs first); the row
   * of the third batch comes after that prune. Without the prune all 5 rows would be numbered (the
   * filter above drops every row but the first either way).
   */
  @Test
  void aWindowTopNKeepsOnlyTheTopRowsOfEachWindow(BufferAllocator allocator) {
    LocalDateTime end = LocalDateTime.of(2024, 1, 1, 0, 0, 10);
    PlanNode plan = rowNumbersPerWindow().withTopN(new WindowTopN(WindowFunction.ROW_NUMBER, 1));
    OperatorContext context = new OperatorContext(allocator, MemoryBudget.unlimited("test"), 2);
    List<List<Object>> output = new ArrayList<>();
    try (TaskPipeline pipeline = PlanPipelines.build(plan, context, collect(output))) {
      assertThat(pipeline.toString())
          .contains("PerWindow[window end=#2, keep row_number() <= 1 per partition, Window[");
      List<List<Object>> rows =
          List.of(
              Arrays.asList(1L, 5L, end),
              Arrays.asList(2L, null, end),
              Arrays.asList(3L, 9L, end),
              Arrays.asList(4L, 9L, end),
              Arrays.asList(5L, 1L, end));
      new ValuesOperator(context, WINDOWED.toArrow(), rows, batch -> pipeline.add(0, batch))
          .start();
      pipeline.finish(0);
    }
    assertThat(output)
        .containsExactly(Arrays.asList(2L, null, end, 1L), Arrays.asList(5L, 1L, end, 2L));
  }

  @Test
  void rejectsExchangesInsideAStage(BufferAllocator allocator) {
    PlanNode plan = PlanBuilder.from(input(0)).coalesce(1).build();
    assertThatThrownBy(() -> PlanPipelines.spec(plan, OperatorContext.of(allocator)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("StagePlanner");
  }
}
