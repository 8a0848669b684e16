package dev.quiver.operators.windowed;

import static dev.quiver.operators.windowed.WindowedTesting.END;
import static dev.quiver.operators.windowed.WindowedTesting.PARTITION;
import static dev.quiver.operators.windowed.WindowedTesting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.sort.PartitionTopN;
import dev.quiver.operators.windowed.WindowedTesting.Recorder;
import dev.quiver.operators.windowed.WindowedTesting.Step;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.plan.window.WindowTopN;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A window top-N whose buffers are pruned to the top n rows of each partition ({@link
 * PartitionTopN}) against the same operator holding every row: after the filter on the rank, the
 * same rows at the same steps, over random streams whose order key (v DESC, NULLs among them) ties
 * often, with several partitions (p, NULL among them) and windows, late rows and rows without a
 * window; the pruned one holds less, fits a budget the other exceeds, and restores its pruned
 * state.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowedTopNTest {
  /** Ties: v DESC alone, so many rows of a partition are peers. */
  private static final List<SortKey> ORDER = List.of(SortKey.desc(1));

  private static final List<WindowCall> RANKS =
      List.of(
          WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"),
          WindowCall.ranking(WindowFunction.RANK, "rk"),
          WindowCall.ranking(WindowFunction.DENSE_RANK, "dr"));

  /** The sort and the three ranking functions, partitioned by (window end, p), over the ties. */
  private static Function<BatchSink, Operator> inner(OperatorContext context) {
    return WindowedTesting.topN(context, ORDER, RANKS);
  }

  private static Schema outputSchema(OperatorContext context) {
    return WindowedTesting.outputSchema(context, ORDER, RANKS);
  }

  private static WindowedOperator operator(
      OperatorContext context, WindowFunction function, long n, Recorder out) {
    PartitionTopN topN =
        function == null
            ? null
            : new PartitionTopN(SCHEMA, PARTITION, ORDER, new WindowTopN(function, n));
    return new WindowedOperator(context, SCHEMA, END, inner(context), topN, out);
  }

  private static OperatorContext context(BufferAllocator a, long budget, int target) {
    return new OperatorContext(a, new MemoryBudget("top-n test", budget), target);
  }

  /** A run's rows by step, those ranked at most {@code n} by {@code function} only. */
  private static Map<Integer, List<List<Object>>> ranked(
      Map<Integer, List<List<Object>>> byStep, WindowFunction function, long n) {
    int column =
        SCHEMA.getFields().size()
            + RANKS.stream().map(WindowCall::function).toList().indexOf(function);
    Map<Integer, List<List<Object>>> kept = new TreeMap<>();
    byStep.forEach(
        (step, rows) -> {
          List<List<Object>> top =
              rows.stream().filter(row -> (Long) row.get(column) <= n).toList();
          if (!top.isEmpty()) {
            kept.put(step, top);
          }
        });
    return kept;
  }

  /** One run over {@code steps}: its rows by step, its counters and its budget's peak. */
  private record Run(Map<Integer, List<List<Object>>> byStep, long late, long nulls, long peak) {}

  private static Run run(
      BufferAllocator a, List<Step> steps, int target, WindowFunction function, long n) {
    OperatorContext context = context(a, Long.MAX_VALUE, target);
    Recorder out = new Recorder(target, outputSchema(context));
    try (WindowedOperator operator = operator(context, function, n, out)) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), true, out, a);
      assertThat(context.budget().used()).isZero();
      return new Run(
          out.byStep, operator.lateRows(), operator.rowsWithoutWindow(), context.budget().peak());
    }
  }

  @ParameterizedTest(name = "{0} <= {1}, seed {2}")
  @CsvSource({
    "ROW_NUMBER, 1, 1",
    "ROW_NUMBER, 3, 2",
    "RANK, 1, 3",
    "RANK, 2, 4",
    "DENSE_RANK, 1, 5",
    "DENSE_RANK, 2, 6"
  })
  void prunedRunEmitsTheUnprunedRowsRankedAtMostN(
      WindowFunction function, long n, long seed, BufferAllocator a) {
    List<Step> steps = WindowedTesting.stream(seed, 6, 400);
    int target = 16; // prunes a window past 16 rows: often
    Run all = run(a, steps, target, null, 0);
    Run pruned = run(a, steps, target, function, n);
    Map<Integer, List<List<Object>>> expected = ranked(all.byStep(), function, n);
    assertThat(expected).isNotEmpty();
    WindowedTesting.assertSameByStep(ranked(pruned.byStep(), function, n), expected);
    assertThat(pruned.late()).isEqualTo(all.late()).isPositive();
    assertThat(pruned.nulls()).isEqualTo(all.nulls()).isPositive();
    long rows = all.byStep().values().stream().mapToLong(List::size).sum();
    long emitted = pruned.byStep().values().stream().mapToLong(List::size).sum();
    assertThat(emitted).as("rows that reach the window functions").isLessThan(rows / 2);
    assertThat(pruned.peak()).as("memory held").isLessThan(all.peak());
  }

  /**
   * Three windows of 2,000 rows each stay open until the end: holding them all takes more than 64
   * KB, their top 2 of each of four partitions far less.
   */
  @Test
  void aBudgetTheUnprunedOperatorExceedsSuffices(BufferAllocator a) {
    List<Step> steps = new ArrayList<>();
    for (int b = 0; b < 150; b++) {
      Long[] ends = new Long[40];
      for (int i = 0; i < ends.length; i++) {
        ends[i] = WindowedTesting.windowEnd(1 + (b + i) % 3);
      }
      steps.add(Step.batch(100 + b, ends));
    }
    long budget = 128 * 1024;
    OperatorContext tight = context(a, budget, 256);
    Recorder all = new Recorder(256, outputSchema(tight));
    try (WindowedOperator operator = operator(tight, null, 0, all)) {
      assertThatThrownBy(
              () -> WindowedTesting.drive(operator, steps, 0, steps.size(), true, all, a))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("keeps the rows of every open window");
    }
    assertThat(tight.budget().used()).isZero();

    OperatorContext enough = context(a, budget, 256);
    Recorder top = new Recorder(256, outputSchema(enough));
    try (WindowedOperator operator = operator(enough, WindowFunction.ROW_NUMBER, 2, top)) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), true, top, a);
    }
    assertThat(enough.budget().used()).isZero();
    Run unlimited = run(a, steps, 256, null, 0);
    WindowedTesting.assertSameByStep(
        ranked(top.byStep, WindowFunction.ROW_NUMBER, 2),
        ranked(unlimited.byStep(), WindowFunction.ROW_NUMBER, 2));
    assertThat(unlimited.peak()).isGreaterThan(budget);
    assertThat(ranked(top.byStep, WindowFunction.ROW_NUMBER, 2).get(steps.size()))
        .hasSize(3 * 4 * 2); // 3 windows, p in {0, 1, 2, NULL}, 2 rows each
  }

  /**
   * Snapshots of pruned buffers hold the pruned rows only; restored, the run goes on to the rows
   * the uninterrupted unpruned run ranks at most n.
   */
  @ParameterizedTest(name = "{0} <= 2")
  @CsvSource({"ROW_NUMBER", "RANK", "DENSE_RANK"})
  void aRestoredPrunedStateContinuesAsTheUnprunedRun(WindowFunction function, BufferAllocator a) {
    List<Step> steps = WindowedTesting.stream(60, 5, 300);
    int target = 16;
    Run all = run(a, steps, target, null, 0);
    int[] cuts = {40, 41, 150, 220};
    OperatorContext context = context(a, Long.MAX_VALUE, target);
    Recorder pieces = new Recorder(target, outputSchema(context));
    byte[] state = null;
    int from = 0;
    for (int c = 0; c <= cuts.length; c++) {
      int to = c < cuts.length ? cuts[c] : steps.size();
      try (WindowedOperator operator = operator(context, function, 2, pieces)) {
        if (state != null) {
          operator.restoreState(state);
        }
        WindowedTesting.drive(operator, steps, from, to, c == cuts.length, pieces, a);
        if (c < cuts.length) {
          state = operator.snapshotState();
          byte[] unpruned = unprunedSnapshot(a, steps, to, target);
          assertThat(state.length).as("snapshot at step " + to).isLessThan(unpruned.length);
        } else {
          assertThat(operator.lateRows()).isEqualTo(all.late());
          assertThat(operator.rowsWithoutWindow()).isEqualTo(all.nulls());
        }
      }
      assertThat(context.budget().used()).isZero();
      from = to;
    }
    WindowedTesting.assertSameByStep(
        ranked(pieces.byStep, function, 2), ranked(all.byStep(), function, 2));
  }

  /** The state of an operator holding every row after steps {@code [0, to)}. */
  private static byte[] unprunedSnapshot(BufferAllocator a, List<Step> steps, int to, int target) {
    OperatorContext context = context(a, Long.MAX_VALUE, target);
    Recorder out = new Recorder(target, outputSchema(context));
    try (WindowedOperator operator = operator(context, null, 0, out)) {
      WindowedTesting.drive(operator, steps, 0, to, false, out, a);
      return operator.snapshotState();
    }
  }

  @Test
  void describesWhatItKeeps(BufferAllocator a) {
    OperatorContext context = context(a, Long.MAX_VALUE, 8192);
    try (WindowedOperator operator =
        operator(context, WindowFunction.RANK, 3, new Recorder(8192, SCHEMA))) {
      assertThat(operator.toString())
          .startsWith("PerWindow[window end=#4, keep rank() <= 3 per partition, Window[");
    }
    assertThatThrownBy(() -> new WindowTopN(WindowFunction.SUM, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row_number, rank or dense_rank");
  }
}
