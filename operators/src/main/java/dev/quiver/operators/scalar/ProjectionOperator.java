package dev.quiver.operators.scalar;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.expr.CompiledExpression;
import dev.quiver.plan.expr.Expr;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Computes one output column per expression. A bare column reference passes its vector through
 * without copying (the output shares the input's buffers); other expressions are evaluated
 * column-at-a-time. One output batch per input batch (empty ones are dropped), sliced without
 * copying where the input exceeds {@link OperatorContext#targetBatchRows()}. Holds no memory
 * between calls.
 */
public final class ProjectionOperator implements Operator {
  private final BatchProjection projection;
  private final List<String> names;
  private final BatchSink sink;
  private final BufferAllocator allocator;
  private final int targetRows;
  private boolean finished;
  private boolean closed;

  /** {@code names} gives each output column's name. */
  public ProjectionOperator(
      OperatorContext context, List<Expr> expressions, List<String> names, BatchSink sink) {
    requireNonNull(context, "context is null");
    requireNonNull(expressions, "expressions is null");
    this.names = List.copyOf(requireNonNull(names, "names is null"));
    if (names.size() != expressions.size()) {
      throw new IllegalArgumentException(
          expressions.size() + " expressions but " + names.size() + " names");
    }
    this.sink = requireNonNull(sink, "sink is null");
    this.allocator = context.allocator();
    this.targetRows = context.targetBatchRows();
    this.projection = new BatchProjection(expressions, this.names);
  }

  /** The schema of the output batches. */
  public Schema schema() {
    return projection.schema();
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    VectorSchemaRoot out = null;
    try {
      if (closed || finished) {
        throw new IllegalStateException(this + " is " + (closed ? "closed" : "finished"));
      }
      if (input != 0) {
        throw new IllegalArgumentException("projection has one input, not input " + input);
      }
      int rows = batch.getRowCount();
      if (rows == 0) {
        return;
      }
      out = project(batch);
      if (rows <= targetRows) {
        VectorSchemaRoot whole = out;
        out = null;
        sink.accept(whole);
        return;
      }
      for (int from = 0; from < rows; from += targetRows) {
        sink.accept(Slices.slice(out, from, Math.min(targetRows, rows - from), allocator));
      }
    } finally {
      batch.close();
      if (out != null) {
        out.close();
      }
    }
  }

  private VectorSchemaRoot project(VectorSchemaRoot batch) {
    return projection.project(batch, allocator);
  }

  @Override
  public void finish(int input) {
    finished = true;
  }

  @Override
  public void close() {
    closed = true;
  }

  /** For example {@code Project[l_orderkey#0, (#5 * (1 - #6)) AS revenue]}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("Project[");
    List<CompiledExpression> expressions = projection.expressions();
    for (int i = 0; i < expressions.size(); i++) {
      Expr expr = expressions.get(i).expression();
      text.append(i == 0 ? "" : ", ").append(expr);
      if (!names.get(i).isEmpty() && !names.get(i).equals(expr.toString())) {
        text.append(" AS ").append(names.get(i));
      }
    }
    return text.append(']').toString();
  }
}
