package dev.quiver.operators.union;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.BatchTransfer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * UNION ALL of {@code n} inputs with the same column types: every batch of every input is passed on
 * as it arrives, without copying (UNION DISTINCT is an aggregate over this operator's output).
 *
 * <pre>
 *   input 0 ──┐
 *   input 1 ──┼──► batches in arrival order, under the union's column names ──► sink
 *   input 2 ──┘
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): {@code n >= 1} inputs, each finished once; the inputs
 * may interleave in any order. A batch whose fields are exactly the union's schema is passed on as
 * it is; one whose names or nullability differ has its buffers moved into vectors of the union's
 * fields (still no copy); one whose types differ is rejected. Empty batches are closed, and a batch
 * of more than {@link OperatorContext#targetBatchRows()} rows is passed on as zero-copy slices.
 * Nothing is kept between calls, so nothing is reserved.
 */
public final class UnionOperator implements Operator {
  private final Schema schema;
  private final int targetRows;
  private final BatchSink sink;
  private final boolean[] finished;
  private int unfinished;
  private boolean closed;

  public UnionOperator(OperatorContext context, Schema schema, int inputs, BatchSink sink) {
    requireNonNull(context, "context is null");
    this.schema = requireNonNull(schema, "schema is null");
    if (inputs < 1) {
      throw new IllegalArgumentException("a union needs at least one input: " + inputs);
    }
    this.targetRows = context.targetBatchRows();
    this.sink = requireNonNull(sink, "sink is null");
    this.finished = new boolean[inputs];
    this.unfinished = inputs;
  }

  @Override
  public int inputs() {
    return finished.length;
  }

  /** Passes {@code batch} on under the union's schema. */
  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    VectorSchemaRoot out;
    try {
      checkInput(input);
      out = batch.getRowCount() == 0 ? null : conform(batch);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    if (out == null) {
      batch.close();
    } else if (out.getRowCount() <= targetRows) {
      sink.accept(out);
    } else {
      try (out) {
        for (int from = 0; from < out.getRowCount(); from += targetRows) {
          int count = Math.min(targetRows, out.getRowCount() - from);
          VectorSchemaRoot slice = out.slice(from, count);
          if (slice.getFieldVectors().isEmpty()) {
            slice.setRowCount(count); // a batch without columns only counts rows
          }
          sink.accept(slice);
        }
      }
    }
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    finished[input] = true;
    unfinished--;
  }

  /** Whether every input is finished. */
  public boolean isFinished() {
    return unfinished == 0;
  }

  @Override
  public void close() {
    closed = true; // nothing is kept between calls
  }

  /** The schema of the output batches. */
  public Schema outputSchema() {
    return schema;
  }

  /** For example {@code Union[inputs=3]}. */
  @Override
  public String toString() {
    return "Union[inputs=" + finished.length + "]";
  }

  /** {@code batch} itself, or its buffers moved into vectors of the union's fields. */
  private VectorSchemaRoot conform(VectorSchemaRoot batch) {
    if (!BatchTransfer.sameTypes(batch, schema)) {
      throw new IllegalArgumentException(
          "batch schema " + batch.getSchema() + " does not match the union's " + schema);
    }
    return BatchTransfer.withSchema(batch, schema);
  }

  private void checkInput(int input) {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    if (input < 0 || input >= finished.length) {
      throw new IllegalArgumentException(
          "input " + input + " is outside [0, " + finished.length + ")");
    }
    if (finished[input]) {
      throw new IllegalStateException("input " + input + " of " + this + " is already finished");
    }
  }
}
