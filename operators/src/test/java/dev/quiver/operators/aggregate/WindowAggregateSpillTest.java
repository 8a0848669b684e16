package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.WindowTesting.CALLS;
import static dev.quiver.operators.aggregate.WindowTesting.END;
import static dev.quiver.operators.aggregate.WindowTesting.K;
import static dev.quiver.operators.aggregate.WindowTesting.NAME;
import static dev.quiver.operators.aggregate.WindowTesting.SCHEMA;
import static dev.quiver.operators.aggregate.WindowTesting.START;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.WindowTesting.Recorder;
import dev.quiver.operators.aggregate.WindowTesting.Shape;
import dev.quiver.operators.aggregate.WindowTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Window aggregates whose open windows do not fit in a small budget: with a spill space they give
 * the rows of the same aggregate with an unlimited budget, at the same watermarks (PARTIAL by
 * emitting its windows early, FINAL and SINGLE by spilling windows to disk and merging them back
 * when the watermark completes them), also across a snapshot taken while windows are spilled; and
 * nothing is left behind (budget, spill files, readers, Arrow memory).
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowAggregateSpillTest {
  private static final int[] KEYS = {START, END, K, NAME};
  private static final long SECOND = 1_000_000;
  private static final long BUDGET = 192 * 1024;
  private static final int TARGET = 500;

  /** HOP(10 s, 2 s): five windows per row, about 1,400 mostly distinct groups per window. */
  private static List<Step> steps(long seed) {
    return WindowTesting.stream(
        new Shape(seed, 10 * SECOND, 2 * SECOND, 40, 300, 2000, 0.02, 0.01, 5000));
  }

  @Test
  void singleSpillsWindowsAndEmitsTheUnlimitedResultAtTheSameWatermarks(BufferAllocator allocator) {
    List<Step> steps = steps(70);
    Recorder expected = unlimited(allocator, steps);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(allocator, space);
    Recorder out = new Recorder(TARGET);
    try (WindowAggregateOperator operator = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      WindowTesting.drive(operator, steps, 0, steps.size(), true, out, allocator);
      System.out.println(
          "spills "
              + operator.spills()
              + " files "
              + space.spilledFiles()
              + " peak "
              + context.budget().peak());
      assertThat(operator.spills()).isPositive();
    }
    assertThat(space.spilledFiles()).as("windows spilled").isPositive();
    assertThat(space.spilledRows()).isPositive();
    assertCleanedUp(context, space);
    assertSameOutput(out, expected);
  }

  private static void assertCleanedUp(OperatorContext context, MemorySpillSpace space) {
    assertThat(context.budget().used()).as("everything released").isZero();
    assertThat(space.liveFiles()).as("every spill file deleted").isZero();
    assertThat(space.openReaders()).isZero();
  }

  private static void assertSameOutput(Recorder out, Recorder expected) {
    assertThat(expected.rows()).isNotEmpty();
    AggregateTesting.assertResults(out.results(KEYS.length), expected.results(KEYS.length), 0);
    assertThat(WindowAggregatePartialFinalTest.byStep(out))
        .isEqualTo(WindowAggregatePartialFinalTest.byStep(expected));
  }

  private static Recorder unlimited(BufferAllocator allocator, List<Step> steps) {
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, TARGET);
    Recorder out = new Recorder(TARGET);
    try (WindowAggregateOperator operator = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      WindowTesting.drive(operator, steps, 0, steps.size(), true, out, allocator);
    }
    return out;
  }

  private static OperatorContext small(BufferAllocator allocator, SpillSpace space) {
    return new OperatorContext(allocator, new MemoryBudget("small task", BUDGET), TARGET, space);
  }

  private static WindowAggregateOperator operator(
      OperatorContext context,
      Schema input,
      AggregateMode mode,
      dev.quiver.operators.BatchSink out) {
    return new WindowAggregateOperator(context, input, mode, KEYS, CALLS, END, out);
  }
}
