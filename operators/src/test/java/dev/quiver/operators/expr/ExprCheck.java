package dev.quiver.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Compares the engine with {@link Reference} and builds small batches for tests. */
final class ExprCheck {
  private ExprCheck() {}

  /**
   * Evaluates {@code expr} over {@code batch} with the engine and the reference: the same value in
   * every row, or the same error code; for predicates also the same selected rows.
   */
  static void check(Expr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
    Reference reference = new Reference(batch);
    List<Object> expected = new ArrayList<>();
    QuiverException expectedError = null;
    for (int row = 0; row < batch.getRowCount(); row++) {
      try {
        expected.add(reference.evaluate(expr, row));
      } catch (QuiverException e) {
        expectedError = e;
        break;
      }
    }
    CompiledExpression compiled = ExpressionCompiler.compile(expr);
    if (expectedError != null) {
      QuiverException error = expectedError;
      assertThatThrownBy(() -> compiled.evaluate(batch, allocator).close())
          .as("%s should fail like the reference: %s", expr, error.getMessage())
          .isInstanceOfSatisfying(
              QuiverException.class, e -> assertThat(e.code()).isEqualTo(error.code()));
      return;
    }
    try (FieldVector vector = compiled.evaluate(batch, allocator)) {
      assertThat(vector.getValueCount()).isEqualTo(batch.getRowCount());
      for (int row = 0; row < batch.getRowCount(); row++) {
        Object actual = Reference.canonical(vector, row, expr.sqlType());
        assertThat(actual)
            .as("%s at row %d of %s", expr, row, rowText(batch, row))
            .isEqualTo(expected.get(row));
      }
    }
    if (expr.sqlType().equals(SqlType.BOOLEAN)) {
      Selection selection = compiled.select(batch, allocator);
      int[] actual = Arrays.copyOf(selection.rows(), selection.size());
      int[] wanted = new int[batch.getRowCount()];
      int count = 0;
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (Boolean.TRUE.equals(expected.get(row))) {
          wanted[count++] = row;
        }
      }
      assertThat(actual)
          .as("rows selected by %s", expr)
          .containsExactly(Arrays.copyOf(wanted, count));
    }
  }

  private static String rowText(VectorSchemaRoot batch, int row) {
    return Reference.rowValues(batch, row).toString();
  }

  /** A batch with one nullable column per type, holding {@code rows} of canonical values. */
  static VectorSchemaRoot batch(
      BufferAllocator allocator, List<SqlType> types, List<List<Object>> rows) {
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < types.size(); c++) {
      fields.add(new Field("c" + c, FieldType.nullable(types.get(c).arrow()), null));
    }
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
    root.allocateNew();
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < types.size(); c++) {
        Values.write(root.getVector(c), r, rows.get(r).get(c), types.get(c));
      }
    }
    root.setRowCount(rows.size());
    return root;
  }

  /** Rows of one column. */
  static List<List<Object>> column(Object... values) {
    List<List<Object>> rows = new ArrayList<>();
    for (Object value : values) {
      rows.add(Arrays.asList(value));
    }
    return rows;
  }
}
