package dev.quiver.operators.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.TransferPair;

/**
 * An expression compiled for repeated evaluation over batches whose columns match its column
 * references. Not thread-safe: it keeps scratch state between batches (one per task).
 *
 * <p>Intermediate vectors are allocated from the allocator given to each call and released before
 * the call returns; only the result is handed over.
 */
public final class CompiledExpression {
  private final Expr expr;
  private final Eval root;
  private final EvalContext ctx = new EvalContext();

  CompiledExpression(Expr expr, Eval root) {
    this.expr = expr;
    this.root = root;
  }

  /** The expression after constant folding. */
  public Expr expression() {
    return expr;
  }

  public SqlType type() {
    return root.type;
  }

  /**
   * The value of every row of {@code batch} as a new vector of {@code field} (whose type must be
   * the expression's), owned by the caller. A bare column reference shares the input's buffers
   * instead of copying them.
   */
  public FieldVector evaluate(VectorSchemaRoot batch, Field field, BufferAllocator allocator) {
    requireNonNull(batch, "batch is null");
    requireNonNull(field, "field is null");
    requireNonNull(allocator, "allocator is null");
    if (!field.getType().equals(root.type.arrow())) {
      throw new IllegalArgumentException(
          "field " + field + " does not have the type of " + expr + ": " + root.type);
    }
    int rows = batch.getRowCount();
    ctx.start(batch, rows, allocator);
    try {
      Col result = root.evaluate(ctx, ctx.all());
      FieldVector vector = result.vector;
      if (result.constant) {
        vector = ctx.newVector(root.field);
        Gather.gather(new Col[] {result}, zeros(rows), ctx.all(), vector, rows);
      }
      TransferPair pair = vector.getTransferPair(field, allocator);
      if (ctx.isTemporary(vector)) {
        ctx.detach(vector);
        pair.transfer();
        vector.close();
      } else {
        pair.splitAndTransfer(0, rows); // an input column: share its buffers
      }
      return (FieldVector) pair.getTo();
    } finally {
      ctx.release();
    }
  }

  /** {@link #evaluate} into an unnamed nullable field. */
  public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
    return evaluate(batch, new Field("", FieldType.nullable(root.type.arrow()), null), allocator);
  }

  /**
   * For a BOOLEAN expression: the rows of {@code batch} where it is TRUE (neither FALSE nor NULL),
   * ascending. Conjuncts are applied one after the other, each only to the rows the previous ones
   * kept. The selection is valid until the next call on this object.
   */
  public Selection select(VectorSchemaRoot batch, BufferAllocator allocator) {
    requireNonNull(batch, "batch is null");
    requireNonNull(allocator, "allocator is null");
    if (!root.type.equals(SqlType.BOOLEAN)) {
      throw new IllegalStateException("not a predicate: " + expr + " is " + root.type);
    }
    ctx.start(batch, batch.getRowCount(), allocator);
    try {
      return root.select(ctx, ctx.all());
    } finally {
      ctx.release();
    }
  }

  private int[] zeros(int rows) {
    int[] zeros = ctx.ints(rows);
    java.util.Arrays.fill(zeros, 0, rows, 0);
    return zeros;
  }

  @Override
  public String toString() {
    return expr.toString();
  }
}
