package dev.quiver.operators.join;

import static dev.quiver.operators.join.HashJoinOperatorTest.BUILD;
import static dev.quiver.operators.join.HashJoinOperatorTest.PROBE;
import static dev.quiver.operators.join.HashJoinOperatorTest.SOME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Memory budget, input order and argument checks, and the one-line description. */
@ExtendWith(ArrowLeakCheck.class)
class HashJoinContractTest {
  private static final String NAME = "HashJoin[type=RIGHT, build=[#0], probe=[#2]]";

  /**
   * Every budget from far too small up to just enough: each shortfall, wherever it strikes (a build
   * batch, concatenating segments, the hash table, the row chains, the matched flags), fails with
   * MEMORY_BUDGET_EXCEEDED naming the task and the operator, and leaves nothing reserved or leaked.
   */
  @Test
  void everyBudgetShortfallFailsCleanlyNamingTheOperator(BufferAllocator a) {
    int failures = 0;
    for (long limit = 1_000; ; limit += 3_000) {
      MemoryBudget budget = new MemoryBudget("task-7", limit);
      OperatorContext context = new OperatorContext(a, budget, 256);
      JoinHarness.Sink sink = new JoinHarness.Sink();
      HashJoinOperator join = join(context, JoinKind.of(JoinType.RIGHT), sink);
      List<VectorSchemaRoot> build = batches(a, BUILD, 3000, 2000, 1000);
      List<VectorSchemaRoot> probe = batches(a, PROBE, 100, 100);
      try {
        JoinHarness.run(join, build, probe, sink);
        break;
      } catch (QuiverException e) {
        failures++;
        assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED);
        assertThat(e).hasMessageContaining("task-7").hasMessageContaining(NAME);
      } finally {
        assertThat(budget.used()).isZero();
      }
    }
    assertThat(failures).isGreaterThan(20);
  }

  @Test
  void probeBatchBeforeTheBuildSideIsFinishedFailsAndIsClosed(BufferAllocator a) {
    try (HashJoinOperator join =
        join(OperatorContext.of(a), JoinKind.of(JoinType.INNER), b -> b.close())) {
      assertThatThrownBy(() -> join.add(1, batches(a, PROBE, 10).get(0)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("must be finished");
      join.finish(0);
      assertThatThrownBy(() -> join.add(0, batches(a, BUILD, 10).get(0)))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> join.add(2, batches(a, PROBE, 10).get(0)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void batchOfTheWrongSchemaFailsAndIsClosed(BufferAllocator a) {
    try (HashJoinOperator join =
        join(OperatorContext.of(a), JoinKind.of(JoinType.INNER), b -> b.close())) {
      VectorSchemaRoot probeShaped = new RandomBatches(1).batch(PROBE, 10, a);
      assertThatThrownBy(() -> join.add(0, probeShaped))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("column 0 of input 0");
    }
  }

  @Test
  void keysMustPairUpWithEqualTypes(BufferAllocator a) {
    OperatorContext context = OperatorContext.of(a);
    JoinKind inner = JoinKind.of(JoinType.INNER);
    assertThatThrownBy(
            () ->
                new HashJoinOperator(
                    context, inner, BUILD, new int[] {0}, PROBE, new int[] {1}, null, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("join key 0");
    assertThatThrownBy(
            () ->
                new HashJoinOperator(
                    context, inner, BUILD, new int[0], PROBE, new int[0], null, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NestedLoopJoinOperator");
    assertThatThrownBy(
            () ->
                new HashJoinOperator(
                    context, inner, BUILD, new int[] {5}, PROBE, new int[] {2}, null, b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void describesItselfInOneLine(BufferAllocator a) {
    OperatorContext context = OperatorContext.of(a);
    try (HashJoinOperator join = join(context, JoinKind.of(JoinType.RIGHT), b -> {})) {
      assertThat(join).hasToString(NAME);
      assertThat(join.outputSchema()).isEqualTo(JoinType.RIGHT.outputSchema(PROBE, BUILD));
    }
    try (HashJoinOperator join =
        new HashJoinOperator(
            context,
            JoinKind.of(JoinType.LEFT_SEMI),
            BUILD,
            new int[] {0, 1},
            PROBE,
            new int[] {2, 0},
            SOME,
            b -> {})) {
      assertThat(join)
          .hasToString(
              "HashJoin[type=LEFT_SEMI, build=[#0, #1], probe=[#2, #0], filter=" + SOME + "]");
    }
  }

  @Test
  void closeIsIdempotentAndReleasesABuiltTable(BufferAllocator a) {
    MemoryBudget budget = MemoryBudget.unlimited("task");
    HashJoinOperator join =
        join(new OperatorContext(a, budget, 128), JoinKind.of(JoinType.FULL), b -> b.close());
    for (VectorSchemaRoot batch : batches(a, BUILD, 300, 200)) {
      join.add(0, batch);
    }
    join.finish(0);
    join.add(1, batches(a, PROBE, 50).get(0));
    assertThat(budget.used()).isPositive();
    join.close(); // before the probe side finished
    join.close();
    assertThat(budget.used()).isZero();
  }

  private static HashJoinOperator join(
      OperatorContext context, JoinKind kind, dev.quiver.operators.BatchSink sink) {
    return new HashJoinOperator(
        context, kind, BUILD, new int[] {0}, PROBE, new int[] {2}, null, sink);
  }

  private static List<VectorSchemaRoot> batches(BufferAllocator a, Schema schema, int... sizes) {
    RandomBatches random = new RandomBatches(sizes.length).distinctValues(500).nullFraction(0.1);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int size : sizes) {
      batches.add(random.batch(schema, size, a));
    }
    return batches;
  }
}
