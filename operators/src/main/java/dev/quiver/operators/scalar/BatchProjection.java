package dev.quiver.operators.scalar;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.expr.CompiledExpression;
import dev.quiver.operators.expr.ExpressionCompiler;
import dev.quiver.plan.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Compiled expressions that compute one output batch from one input batch, column at a time: the
 * evaluation {@link ProjectionOperator} runs, for callers outside an operator pipeline too (a
 * connector computing a table's computed columns before it extracts watermarks). A bare column
 * reference passes its vector through without copying. Not thread-safe; holds no memory.
 */
public final class BatchProjection {
  private final List<CompiledExpression> expressions;
  private final Schema schema;

  /** {@code names} gives each output column's name. */
  public BatchProjection(List<Expr> expressions, List<String> names) {
    requireNonNull(expressions, "expressions is null");
    requireNonNull(names, "names is null");
    if (names.size() != expressions.size()) {
      throw new IllegalArgumentException(
          expressions.size() + " expressions but " + names.size() + " names");
    }
    List<CompiledExpression> compiled = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < expressions.size(); i++) {
      Expr expr = expressions.get(i);
      compiled.add(ExpressionCompiler.compile(expr));
      fields.add(new Field(names.get(i), new FieldType(expr.nullable(), expr.type(), null), null));
    }
    this.expressions = List.copyOf(compiled);
    this.schema = new Schema(fields);
  }

  /** The schema of the output batches. */
  public Schema schema() {
    return schema;
  }

  /** The compiled expressions, in output order. */
  public List<CompiledExpression> expressions() {
    return expressions;
  }

  /**
   * The output batch of {@code batch}, its new vectors allocated from {@code allocator}; the caller
   * owns both batches.
   */
  public VectorSchemaRoot project(VectorSchemaRoot batch, BufferAllocator allocator) {
    List<FieldVector> columns = new ArrayList<>(expressions.size());
    try {
      for (int i = 0; i < expressions.size(); i++) {
        columns.add(expressions.get(i).evaluate(batch, schema.getFields().get(i), allocator));
      }
    } catch (RuntimeException e) {
      AutoCloseables.close(e, columns);
      throw e;
    }
    return new VectorSchemaRoot(schema, columns, batch.getRowCount());
  }

  /** {@link #project}, then closes {@code batch}: the output holds what it shares of it. */
  public VectorSchemaRoot projectAndClose(VectorSchemaRoot batch, BufferAllocator allocator) {
    try (batch) {
      return project(batch, allocator);
    }
  }
}
