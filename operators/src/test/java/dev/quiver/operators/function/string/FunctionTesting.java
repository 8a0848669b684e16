package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.ExpressionCompiler;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Batches of strings and longs, and registry calls evaluated over them. */
final class FunctionTesting {
  private FunctionTesting() {}

  /**
   * A batch whose columns hold {@code rows}; a column is VARCHAR when its first non-NULL value is a
   * String, BIGINT otherwise.
   */
  static VectorSchemaRoot batch(BufferAllocator allocator, List<List<Object>> rows) {
    int columns = rows.get(0).size();
    List<Field> fields = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      boolean string = false;
      for (List<Object> row : rows) {
        string |= row.get(c) instanceof String;
      }
      SqlType type = string ? SqlType.VARCHAR : SqlType.BIGINT;
      fields.add(new Field("c" + c, FieldType.nullable(type.arrow()), null));
    }
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
    root.allocateNew();
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < columns; c++) {
        Object value = rows.get(r).get(c);
        FieldVector vector = root.getVector(c);
        if (value == null) {
          vector.setNull(r);
        } else if (vector instanceof VarCharVector strings) {
          strings.setSafe(r, ((String) value).getBytes(StandardCharsets.UTF_8));
        } else {
          ((BigIntVector) vector).setSafe(r, (Long) value);
        }
      }
    }
    root.setRowCount(rows.size());
    return root;
  }

  static List<List<Object>> rows(Object[]... rows) {
    List<List<Object>> list = new ArrayList<>();
    for (Object[] row : rows) {
      list.add(Arrays.asList(row));
    }
    return list;
  }

  static Object[] row(Object... values) {
    return values;
  }

  /** The values of {@code name(args)} over the batch: String, Long, Integer, Boolean or null. */
  static List<Object> values(
      BufferAllocator allocator, VectorSchemaRoot batch, String name, Expr... args) {
    Expr call = FunctionRegistry.call(name, args);
    try (FieldVector vector = ExpressionCompiler.compile(call).evaluate(batch, allocator)) {
      List<Object> values = new ArrayList<>();
      for (int row = 0; row < batch.getRowCount(); row++) {
        Object value = vector.getObject(row);
        values.add(
            value == null || value instanceof Number || value instanceof Boolean
                ? value
                : value.toString());
      }
      return values;
    }
  }

  /** The rows {@code name(args)} selects (a BOOLEAN function as a filter). */
  static List<Integer> selected(
      BufferAllocator allocator, VectorSchemaRoot batch, String name, Expr... args) {
    Selection selection =
        ExpressionCompiler.compile(FunctionRegistry.call(name, args)).select(batch, allocator);
    List<Integer> rows = new ArrayList<>();
    for (int k = 0; k < selection.size(); k++) {
      rows.add(selection.rows()[k]);
    }
    return rows;
  }

  /** The value of {@code name(args)} over literal arguments, folded or not. */
  static Object constant(BufferAllocator allocator, String name, Expr... args) {
    try (VectorSchemaRoot one = batch(allocator, rows(row(0L)))) {
      return values(allocator, one, name, args).get(0);
    }
  }
}
