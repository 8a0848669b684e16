package dev.quiver.operators.scalar;

import static dev.quiver.plan.expr.Exprs.and;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.expr.CompiledExpression;
import dev.quiver.operators.expr.ExpressionCompiler;
import dev.quiver.operators.expr.Lineitems;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class FilterOperatorTest {
  private static final Expr I32 = col(3, SqlType.INTEGER, "i32");
  private static final Expr PREDICATE =
      and(
          call(ScalarFunction.GREATER_THAN, I32, lit(0)),
          call(ScalarFunction.IS_NOT_NULL, col(9, SqlType.VARCHAR)));

  private static OperatorContext context(BufferAllocator allocator, int targetRows) {
    return new OperatorContext(allocator, new MemoryBudget("test", 1L << 30), targetRows);
  }

  /** The rows the predicate keeps, computed batch by batch with the compiled predicate. */
  private static List<List<Object>> expected(
      Expr predicate, List<VectorSchemaRoot> batches, BufferAllocator allocator) {
    CompiledExpression compiled = ExpressionCompiler.compile(predicate);
    List<List<Object>> rows = new ArrayList<>();
    for (VectorSchemaRoot batch : batches) {
      Selection selection = compiled.select(batch, allocator);
      for (int k = 0; k < selection.size(); k++) {
        rows.add(BatchRows.row(batch, selection.rows()[k]));
      }
    }
    return rows;
  }

  /** Small outputs wait for a fuller batch, until a flush (a streaming task's watermark). */
  @Test
  void flushEmitsTheRowsHeldForAFullerBatch(BufferAllocator allocator) {
    RandomBatches random = new RandomBatches(5).nullFraction(0.2);
    VectorSchemaRoot first = random.batch(RandomBatches.ALL_TYPES, 40, allocator);
    VectorSchemaRoot second = random.batch(RandomBatches.ALL_TYPES, 40, allocator);
    List<List<Object>> expected = expected(PREDICATE, List.of(first, second), allocator);
    OperatorContext context = context(allocator, 1000);
    try (CollectingSink sink = new CollectingSink();
        FilterOperator filter = new FilterOperator(context, PREDICATE, sink)) {
      filter.add(0, first);
      assertThat(sink.rows()).as("held for a fuller batch").isEmpty();
      filter.flush();
      List<List<Object>> flushed = List.copyOf(sink.rows());
      assertThat(flushed).isNotEmpty().isEqualTo(expected.subList(0, flushed.size()));
      assertThat(context.budget().used()).as("nothing held after a flush").isZero();
      filter.flush(); // nothing held: nothing emitted
      assertThat(sink.sizes()).hasSize(1);
      filter.add(0, second);
      filter.finish(0);
      filter.flush(); // after the end: nothing
      assertThat(sink.rows()).isEqualTo(expected);
    }
  }

  @Test
  void keepsExactlyTheTrueRowsInOrderWithinTheBatchBound(BufferAllocator allocator) {
    RandomBatches random = new RandomBatches(17).nullFraction(0.2);
    List<VectorSchemaRoot> inputs = new ArrayList<>();
    for (int rows : new int[] {0, 1, 37, 500, 37, 65536, 3, 1000, 0, 64}) {
      inputs.add(random.batch(RandomBatches.ALL_TYPES, rows, allocator));
    }
    List<List<Object>> expected = expected(PREDICATE, inputs, allocator);
    OperatorContext context = context(allocator, 1000);
    try (CollectingSink sink = new CollectingSink();
        FilterOperator filter = new FilterOperator(context, PREDICATE, sink)) {
      for (VectorSchemaRoot input : inputs) {
        filter.add(0, input);
      }
      filter.finish(0);
      assertThat(sink.rows()).isEqualTo(expected);
      List<Integer> sizes = sink.sizes();
      assertThat(sizes).allSatisfy(size -> assertThat(size).isBetween(1, 1000));
      assertThat(sizes.subList(0, sizes.size() - 1))
          .allSatisfy(size -> assertThat(size).isGreaterThanOrEqualTo(500));
      assertThat(context.budget().used()).isZero();
    }
  }

  @Test
  void coalescesSmallOutputsUpToTheTarget(BufferAllocator allocator) {
    RandomBatches random = new RandomBatches(5).nullFraction(0);
    OperatorContext context = context(allocator, 100);
    List<VectorSchemaRoot> inputs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      inputs.add(random.batch(RandomBatches.ALL_TYPES, 37, allocator));
    }
    Expr predicate = call(ScalarFunction.GREATER_THAN, I32, lit(0));
    List<List<Object>> expected = expected(predicate, inputs, allocator);
    try (CollectingSink sink = new CollectingSink();
        FilterOperator filter = new FilterOperator(context, predicate, sink)) {
      for (VectorSchemaRoot input : inputs) {
        filter.add(0, input);
      }
      assertThat(context.budget().used()).as("pending rows are reserved").isPositive();
      filter.finish(0);
      assertThat(sink.rows()).isEqualTo(expected);
      List<Integer> sizes = sink.sizes();
      assertThat(sizes.subList(0, sizes.size() - 1)).containsOnly(100);
      assertThat(sizes.get(sizes.size() - 1)).isBetween(1, 100);
      assertThat(context.budget().used()).isZero();
    }
  }

  @Test
  void batchesWhereEveryRowSurvivesPassUntouched(BufferAllocator allocator) {
    try (CollectingSink sink = new CollectingSink();
        FilterOperator filter = new FilterOperator(context(allocator, 8192), lit(true), sink)) {
      VectorSchemaRoot batch = new RandomBatches(1).batch(RandomBatches.ALL_TYPES, 8000, allocator);
      filter.add(0, batch);
      assertThat(sink.batches).containsExactly(batch);
      VectorSchemaRoot big = new RandomBatches(2).batch(RandomBatches.ALL_TYPES, 65536, allocator);
      List<List<Object>> rows = BatchRows.rows(big);
      filter.add(0, big);
      filter.finish(0);
      assertThat(sink.sizes())
          .containsExactly(8000, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192);
      assertThat(sink.rows().subList(8000, 8000 + 65536)).isEqualTo(rows);
    }
  }

  @Test
  void batchesWhereNoRowSurvivesEmitNothing(BufferAllocator allocator) {
    Expr none = call(ScalarFunction.LESS_THAN, I32, col(3, SqlType.INTEGER));
    try (CollectingSink sink = new CollectingSink();
        FilterOperator filter = new FilterOperator(context(allocator, 8192), none, sink)) {
      for (int i = 0; i < 3; i++) {
        filter.add(0, new RandomBatches(i).batch(RandomBatches.ALL_TYPES, 4000, allocator));
      }
      filter.finish(0);
      assertThat(sink.batches).isEmpty();
    }
  }

  @Test
  void q6PredicateFiltersLineitems(BufferAllocator allocator) {
    List<VectorSchemaRoot> inputs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      inputs.add(Lineitems.batch(allocator, 20_000, i, i % 2 == 0));
    }
    List<List<Object>> expected = expected(Lineitems.Q6_PREDICATE, inputs, allocator);
    try (CollectingSink sink = new CollectingSink();
        FilterOperator filter =
            new FilterOperator(context(allocator, 8192), Lineitems.Q6_PREDICATE, sink)) {
      assertThat(filter.toString())
          .isEqualTo(
              "Filter[((l_shipdate#4 >= DATE '1994-01-01') AND (l_shipdate#4 < DATE '1995-01-01')"
                  + " AND (l_discount#2 BETWEEN 0.05 AND 0.07) AND (l_quantity#0 < 24))]");
      inputs.forEach(batch -> filter.add(0, batch));
      filter.finish(0);
      assertThat(sink.rows()).isEqualTo(expected).hasSizeGreaterThan(1000);
    }
  }

  @Test
  void errorsCloseTheBatchAndPropagate(BufferAllocator allocator) {
    Expr failing =
        call(
            ScalarFunction.GREATER_THAN,
            call(ScalarFunction.DIVIDE, lit(1), col(0, SqlType.INTEGER)),
            lit(0));
    try (CollectingSink sink = new CollectingSink();
        FilterOperator filter = new FilterOperator(context(allocator, 8192), failing, sink)) {
      VectorSchemaRoot batch =
          VectorSchemaRoot.create(
              new org.apache.arrow.vector.types.pojo.Schema(
                  List.of(RandomBatches.field("x", SqlType.INTEGER.arrow()))),
              allocator);
      batch.allocateNew();
      ((org.apache.arrow.vector.IntVector) batch.getVector(0)).setSafe(0, 0);
      batch.setRowCount(1);
      assertThatThrownBy(() -> filter.add(0, batch))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("division by zero");
    }
  }
}
