package dev.quiver.operators.exec;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.memory.BatchTransfer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The last step of a stage task: passes every batch on under exactly the stage's output schema.
 *
 * <p>Why: a stage's output edge carries one schema, and the edge's serializer insists on it, field
 * names and nullability included; operators name and flag their output columns their own way (a
 * filter passes its input through, a join takes both sides' names). A batch that already has the
 * schema goes through untouched; one whose names or nullability differ has its buffers moved into
 * vectors of the expected fields (no copy); one whose types differ is a bug and fails. Empty
 * batches are closed. Keeps nothing between calls.
 */
public final class ConformOperator implements Operator {
  private final Schema schema;
  private final BatchSink sink;
  private boolean finished;

  public ConformOperator(Schema schema, BatchSink sink) {
    this.schema = requireNonNull(schema, "schema is null");
    this.sink = requireNonNull(sink, "sink is null");
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    VectorSchemaRoot out;
    try {
      if (input != 0 || finished) {
        throw new IllegalStateException(this + ": unexpected batch for input " + input);
      }
      out = batch.getRowCount() == 0 ? null : conform(batch);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    if (out == null) {
      batch.close();
    } else {
      sink.accept(out);
    }
  }

  private VectorSchemaRoot conform(VectorSchemaRoot batch) {
    if (!BatchTransfer.sameTypes(batch, schema)) {
      throw new IllegalStateException(
          "a stage task produced " + batch.getSchema() + " where its plan promises " + schema);
    }
    return BatchTransfer.withSchema(batch, schema);
  }

  @Override
  public void finish(int input) {
    finished = true;
  }

  @Override
  public void close() {
    finished = true; // nothing is kept between calls
  }

  @Override
  public String toString() {
    return "Conform[" + schema.getFields().size() + " columns]";
  }
}
