package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.WindowTesting.CALLS;
import static dev.quiver.operators.aggregate.WindowTesting.END;
import static dev.quiver.operators.aggregate.WindowTesting.K;
import static dev.quiver.operators.aggregate.WindowTesting.NAME;
import static dev.quiver.operators.aggregate.WindowTesting.PRICE;
import static dev.quiver.operators.aggregate.WindowTesting.SCHEMA;
import static dev.quiver.operators.aggregate.WindowTesting.START;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.WindowTesting.Emission;
import dev.quiver.operators.aggregate.WindowTesting.Recorder;
import dev.quiver.operators.aggregate.WindowTesting.Row;
import dev.quiver.operators.aggregate.WindowTesting.Shape;
import dev.quiver.operators.aggregate.WindowTesting.Step;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three PARTIAL window aggregates (three producer tasks, each a third of the rows and every
 * watermark) into one FINAL: the same groups, values and emission steps as one SINGLE over all
 * rows.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowAggregatePartialFinalTest {
  private static final int SPLITS = 3;

  @Test
  void partialsIntoFinalEqualSingleForTumblingWindows(BufferAllocator allocator) {
    long seed = 40;
    for (int[] keys : new int[][] {{START, END, K, NAME}, {END, START, PRICE}}) {
      Shape shape = new Shape(seed++, 1_000_000, 1_000_000, 30, 150, 400, 0.04, 0.01, 5);
      check(allocator, keys, WindowTesting.stream(shape));
    }
  }

  @Test
  void partialsIntoFinalEqualSingleForHoppingWindows(BufferAllocator allocator) {
    Shape shape = new Shape(50, 3_000_000, 1_000_000, 25, 100, 800, 0.04, 0.01, 5);
    check(allocator, new int[] {START, END, K}, WindowTesting.stream(shape));
  }

  private static void check(BufferAllocator allocator, int[] keys, List<Step> steps) {
    int target = 100;
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, target);
    Recorder single = new Recorder(target);
    long singleLate;
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context, SCHEMA, AggregateMode.SINGLE, keys, CALLS, END, single)) {
      WindowTesting.drive(operator, steps, 0, steps.size(), true, single, allocator);
      singleLate = operator.lateRows();
    }
    Recorder out = new Recorder(target);
    Schema states = HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, keys, CALLS);
    List<WindowAggregateOperator> partials = new ArrayList<>();
    try (WindowAggregateOperator fin =
        new WindowAggregateOperator(context, states, AggregateMode.FINAL, keys, CALLS, END, out)) {
      for (int p = 0; p < SPLITS; p++) {
        partials.add(
            new WindowAggregateOperator(
                context, SCHEMA, AggregateMode.PARTIAL, keys, CALLS, END, b -> fin.add(0, b)));
      }
      for (int s = 0; s < steps.size(); s++) {
        out.step = s;
        Step step = steps.get(s);
        if (step.isWatermark()) {
          partials.forEach(p -> p.watermark(step.watermark())); // their states reach the final
          fin.watermark(step.watermark()); // then the watermark does
        } else {
          for (int p = 0; p < SPLITS; p++) {
            partials.get(p).add(0, WindowTesting.batch(third(step.rows(), p), allocator));
          }
        }
      }
      out.step = steps.size();
      partials.forEach(p -> p.finish(0));
      fin.finish(0);
      assertThat(fin.lateRows()).as("states are never late").isZero();
      assertThat(partials.stream().mapToLong(WindowAggregateOperator::lateRows).sum())
          .isEqualTo(singleLate);
    } finally {
      partials.forEach(WindowAggregateOperator::close);
    }
    assertThat(context.budget().used()).isZero();
    AggregateTesting.assertResults(out.results(keys.length), single.results(keys.length), 0);
    assertThat(byStep(out)).isEqualTo(byStep(single));
  }

  private static List<Row> third(List<Row> rows, int p) {
    List<Row> part = new ArrayList<>();
    for (int i = p; i < rows.size(); i += SPLITS) {
      part.add(rows.get(i));
    }
    return part;
  }

  /** Step → the rows emitted at it, counted (FINAL and SINGLE make their groups in turn). */
  static Map<Integer, Map<List<Object>, Integer>> byStep(Recorder recorder) {
    Map<Integer, Map<List<Object>, Integer>> steps = new HashMap<>();
    for (Emission emission : recorder.emissions) {
      Map<List<Object>, Integer> rows = new HashMap<>();
      emission.rows().forEach(row -> rows.merge(row, 1, Integer::sum));
      steps.put(emission.step(), rows);
    }
    return steps;
  }
}
