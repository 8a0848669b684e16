package dev.quiver.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The TPC-H Q6 predicate and Q1 charge expression on DECIMAL(15,2) columns, exactly. */
@ExtendWith(ArrowLeakCheck.class)
class TpchExpressionsTest {
  @Test
  void q6PredicateFoldsAndSelectsExactly(BufferAllocator allocator) {
    CompiledExpression q6 = ExpressionCompiler.compile(Lineitems.Q6_PREDICATE);
    assertThat(q6.toString())
        .isEqualTo(
            "((l_shipdate#4 >= DATE '1994-01-01') AND (l_shipdate#4 < DATE '1995-01-01')"
                + " AND (l_discount#2 BETWEEN 0.05 AND 0.07) AND (l_quantity#0 < 24))");
    for (boolean nulls : new boolean[] {false, true}) {
      try (VectorSchemaRoot batch = Lineitems.batch(allocator, 65536, nulls ? 2 : 1, nulls)) {
        ExprCheck.check(Lineitems.Q6_PREDICATE, batch, allocator);
        Selection selected = q6.select(batch, allocator);
        BigDecimal revenue = BigDecimal.ZERO.setScale(4);
        BigDecimal expected = BigDecimal.ZERO.setScale(4);
        DecimalVector price = (DecimalVector) batch.getVector(1);
        DecimalVector discount = (DecimalVector) batch.getVector(2);
        for (int k = 0; k < selected.size(); k++) {
          int row = selected.rows()[k];
          if (price.isNull(row)) {
            continue; // SUM skips NULL
          }
          revenue = revenue.add(price.getObject(row).multiply(discount.getObject(row)));
        }
        Reference reference = new Reference(batch);
        int count = 0;
        for (int row = 0; row < batch.getRowCount(); row++) {
          if (Boolean.TRUE.equals(reference.evaluate(Lineitems.Q6_PREDICATE, row))) {
            count++;
            if (!price.isNull(row)) {
              expected = expected.add(price.getObject(row).multiply(discount.getObject(row)));
            }
          }
        }
        assertThat(selected.size()).isEqualTo(count).isGreaterThan(500);
        assertThat(revenue).isEqualTo(expected);
      }
    }
  }

  @Test
  void q1ChargeIsExact(BufferAllocator allocator) {
    assertThat(Lineitems.Q1_CHARGE.sqlType()).isEqualTo(SqlType.decimal(38, 6));
    assertThat(Lineitems.Q1_CHARGE.toString())
        .isEqualTo("((l_extendedprice#1 * (1 - l_discount#2)) * (1 + l_tax#3))");
    try (VectorSchemaRoot batch = Lineitems.batch(allocator, 65536, 3, true)) {
      ExprCheck.check(Lineitems.Q1_CHARGE, batch, allocator);
      try (FieldVector charge =
          ExpressionCompiler.compile(Lineitems.Q1_CHARGE).evaluate(batch, allocator)) {
        DecimalVector price = (DecimalVector) batch.getVector(1);
        DecimalVector discount = (DecimalVector) batch.getVector(2);
        DecimalVector tax = (DecimalVector) batch.getVector(3);
        for (int row = 0; row < batch.getRowCount(); row++) {
          if (price.isNull(row) || discount.isNull(row) || tax.isNull(row)) {
            assertThat(charge.isNull(row)).isTrue();
            continue;
          }
          BigDecimal exact =
              price
                  .getObject(row)
                  .multiply(BigDecimal.ONE.subtract(discount.getObject(row)))
                  .multiply(BigDecimal.ONE.add(tax.getObject(row)))
                  .setScale(6, RoundingMode.UNNECESSARY);
          assertThat(((DecimalVector) charge).getObject(row)).isEqualTo(exact);
        }
      }
    }
  }
}
