package dev.quiver.operators.join;

import static dev.quiver.testing.RandomBatches.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.JoinHarness.Output;
import dev.quiver.operators.join.JoinHarness.RowFilter;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(ArrowLeakCheck.class)
class NestedLoopJoinOperatorTest {
  private static final Schema BUILD =
      new Schema(
          List.of(
              field("b_id", new ArrowType.Int(64, true)),
              field("b_v", new ArrowType.Int(32, true)),
              field("b_s", ArrowType.Utf8.INSTANCE)));
  private static final Schema PROBE =
      new Schema(
          List.of(
              field("p_w", new ArrowType.Int(32, true)), field("p_s", ArrowType.Utf8.INSTANCE)));

  /** {@code b_v < p_w}; NULL on either side rejects. */
  private static final RowFilter LESS =
      new RowFilter(
          "b_v < p_w",
          (b, p) ->
              b.get(1) != null && p.get(0) != null && (Integer) b.get(1) < (Integer) p.get(0));

  @Test
  void crossJoinEmitsEveryPairInBoundedBatches(BufferAllocator a) {
    Output output =
        run(a, JoinKind.of(JoinType.INNER), null, 100, new int[] {10, 0, 25}, 300, 1, 7);
    assertThat(output.rows()).hasSize(35 * 308);
    assertThat(output.batchSizes()).allSatisfy(size -> assertThat(size).isBetween(1, 100));
    assertThat(output.schemas().get(0)).isEqualTo(JoinType.INNER.outputSchema(PROBE, BUILD));
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void nonEquiConditionMatchesReference(JoinType type, BufferAllocator a) {
    run(a, JoinKind.of(type), LESS, 64, new int[] {40, 1, 17}, 200, 0, 33, 1);
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void crossJoinOfEveryTypeMatchesReference(JoinType type, BufferAllocator a) {
    run(a, JoinKind.of(type), null, 50, new int[] {7, 3}, 20, 9);
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void emptyBuildSide(JoinType type, BufferAllocator a) {
    run(a, JoinKind.of(type), LESS, 64, new int[] {0}, 100, 3);
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void emptyProbeSide(JoinType type, BufferAllocator a) {
    run(a, JoinKind.of(type), LESS, 64, new int[] {30, 5});
  }

  @Test
  void rejectsNullAwareJoins(BufferAllocator a) {
    assertThatThrownBy(
            () ->
                new NestedLoopJoinOperator(
                    OperatorContext.of(a),
                    JoinKind.nullAware(JoinType.LEFT_ANTI),
                    BUILD,
                    PROBE,
                    null,
                    batch -> batch.close()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void buildSideBeyondTheBudgetFailsNamingTheOperator(BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("task-1", 10_000);
    OperatorContext context = new OperatorContext(a, budget, 1024);
    List<VectorSchemaRoot> build = batches(new RandomBatches(3), BUILD, new int[] {500, 500}, a);
    NestedLoopJoinOperator join =
        new NestedLoopJoinOperator(
            context, JoinKind.of(JoinType.INNER), BUILD, PROBE, LESS, batch -> batch.close());
    assertThatThrownBy(() -> JoinHarness.run(join, build, List.of(), new JoinHarness.Sink()))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("NestedLoopJoin[type=INNER, filter=b_v < p_w]")
        .satisfies(
            e ->
                assertThat(((QuiverException) e).code())
                    .isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED));
    assertThat(budget.used()).isZero();
  }

  @Test
  void printsItselfInOneLine(BufferAllocator a) {
    try (NestedLoopJoinOperator join =
        new NestedLoopJoinOperator(
            OperatorContext.of(a),
            JoinKind.of(JoinType.LEFT),
            BUILD,
            PROBE,
            LESS,
            b -> b.close())) {
      assertThat(join).hasToString("NestedLoopJoin[type=LEFT, filter=b_v < p_w]");
    }
  }

  /** Runs a join over random batches of the given sizes and checks it against the reference. */
  private static Output run(
      BufferAllocator a,
      JoinKind kind,
      RowFilter filter,
      int targetRows,
      int[] buildSizes,
      int... probeSizes) {
    RandomBatches random =
        new RandomBatches(buildSizes.length * 31L + probeSizes.length)
            .nullFraction(0.1)
            .distinctValues(50);
    List<VectorSchemaRoot> build = batches(random, BUILD, buildSizes, a);
    List<VectorSchemaRoot> probe = batches(random, PROBE, probeSizes, a);
    List<List<Object>> expected =
        JoinReference.join(
            kind,
            JoinHarness.rows(build),
            3,
            new int[0],
            JoinHarness.rows(probe),
            2,
            new int[0],
            filter == null ? null : filter.predicate());
    OperatorContext context = new OperatorContext(a, MemoryBudget.unlimited("test"), targetRows);
    JoinHarness.Sink sink = new JoinHarness.Sink();
    Output output =
        JoinHarness.run(
            new NestedLoopJoinOperator(context, kind, BUILD, PROBE, filter, sink),
            build,
            probe,
            sink);
    JoinHarness.assertSameRows(output.rows(), expected);
    assertThat(output.batchSizes()).allSatisfy(size -> assertThat(size).isBetween(1, targetRows));
    assertThat(context.budget().used()).isZero();
    return output;
  }

  static List<VectorSchemaRoot> batches(
      RandomBatches random, Schema schema, int[] sizes, BufferAllocator a) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int size : sizes) {
      batches.add(random.batch(schema, size, a));
    }
    return batches;
  }
}
