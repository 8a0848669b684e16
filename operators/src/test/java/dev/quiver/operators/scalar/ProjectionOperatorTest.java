package dev.quiver.operators.scalar;

import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.expr.Lineitems;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class ProjectionOperatorTest {
  @Test
  void passesColumnsThroughAndComputesTheRest(BufferAllocator allocator) {
    List<Expr> exprs =
        List.of(
            Lineitems.SHIPDATE,
            Lineitems.Q1_CHARGE,
            call(ScalarFunction.ADD, Lineitems.QUANTITY, lit(1)));
    OperatorContext context = new OperatorContext(allocator, MemoryBudget.unlimited("test"), 8192);
    try (CollectingSink sink = new CollectingSink();
        ProjectionOperator project =
            new ProjectionOperator(context, exprs, List.of("ship", "charge", "q1"), sink)) {
      assertThat(project.toString())
          .isEqualTo(
              "Project[l_shipdate#4 AS ship, ((l_extendedprice#1 * (1 - l_discount#2)) * (1 + l_tax#3)) AS charge,"
                  + " (l_quantity#0 + 1) AS q1]");
      assertThat(project.schema().getFields().get(1).getType())
          .isEqualTo(SqlType.decimal(38, 6).arrow());
      VectorSchemaRoot input = Lineitems.batch(allocator, 5000, 8, true);
      List<List<Object>> inputRows = BatchRows.rows(input);
      long shipdateAddress = input.getVector(4).getDataBuffer().memoryAddress();
      project.add(0, input);
      project.finish(0);
      assertThat(sink.batches).hasSize(1);
      VectorSchemaRoot out = sink.batches.get(0);
      FieldVector ship = out.getVector(0);
      assertThat(ship.getDataBuffer().memoryAddress())
          .isEqualTo(shipdateAddress); // shared, not copied
      assertThat(out.getSchema().getFields().get(0).getName()).isEqualTo("ship");
      for (int row = 0; row < 5000; row++) {
        List<Object> in = inputRows.get(row);
        List<Object> o = BatchRows.row(out, row);
        assertThat(o.get(0)).isEqualTo(in.get(4));
        if (in.get(1) == null || in.get(2) == null || in.get(3) == null) {
          assertThat(o.get(1)).isNull();
        } else {
          BigDecimal charge =
              ((BigDecimal) in.get(1))
                  .multiply(BigDecimal.ONE.subtract((BigDecimal) in.get(2)))
                  .multiply(BigDecimal.ONE.add((BigDecimal) in.get(3)))
                  .setScale(6, RoundingMode.UNNECESSARY);
          assertThat(o.get(1)).isEqualTo(charge);
        }
        assertThat(o.get(2))
            .isEqualTo(in.get(0) == null ? null : ((BigDecimal) in.get(0)).add(BigDecimal.ONE));
      }
    }
  }

  @Test
  void largeBatchesAreSlicedAndEmptyOnesDropped(BufferAllocator allocator) {
    OperatorContext context = new OperatorContext(allocator, MemoryBudget.unlimited("test"), 1000);
    List<Expr> exprs = List.of(col(0, Lineitems.MONEY), lit(7));
    try (CollectingSink sink = new CollectingSink();
        ProjectionOperator project =
            new ProjectionOperator(context, exprs, List.of("q", "seven"), sink)) {
      VectorSchemaRoot input = Lineitems.batch(allocator, 2500, 9, false);
      List<List<Object>> expected =
          BatchRows.rows(input).stream()
              .map(row -> List.of(row.get(0), 7))
              .collect(java.util.stream.Collectors.toList());
      project.add(0, input);
      project.add(0, Lineitems.batch(allocator, 0, 9, false));
      project.finish(0);
      assertThat(sink.sizes()).containsExactly(1000, 1000, 500);
      assertThat(sink.rows()).isEqualTo(expected);
    }
  }
}
