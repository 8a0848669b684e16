package dev.quiver.operators.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/** Moves and shares of whole batches between owners or schemas, without copying data. */
public final class BatchTransfer {
  private BatchTransfer() {}

  /**
   * Moves every buffer of {@code source} into a new root accounted to {@code target}, leaving
   * {@code source} empty: the new root outlives whoever closes {@code source}.
   */
  public static VectorSchemaRoot move(VectorSchemaRoot source, BufferAllocator target) {
    requireNonNull(source, "source is null");
    requireNonNull(target, "target is null");
    List<FieldVector> vectors = new ArrayList<>(source.getFieldVectors().size());
    for (FieldVector vector : source.getFieldVectors()) {
      TransferPair pair = vector.getTransferPair(target);
      pair.transfer();
      vectors.add((FieldVector) pair.getTo());
    }
    int rows = source.getRowCount();
    source.setRowCount(0);
    return new VectorSchemaRoot(source.getSchema().getFields(), vectors, rows);
  }

  /**
   * A new root sharing {@code source}'s buffers (reference-counted, accounted to {@code target});
   * both roots stay valid and each must be closed. Only for batches nobody mutates any more.
   */
  public static VectorSchemaRoot share(VectorSchemaRoot source, BufferAllocator target) {
    requireNonNull(source, "source is null");
    requireNonNull(target, "target is null");
    int rows = source.getRowCount();
    List<FieldVector> vectors = new ArrayList<>(source.getFieldVectors().size());
    for (FieldVector vector : source.getFieldVectors()) {
      TransferPair pair = vector.getTransferPair(target);
      pair.splitAndTransfer(0, rows);
      vectors.add((FieldVector) pair.getTo());
    }
    return new VectorSchemaRoot(source.getSchema().getFields(), vectors, rows);
  }

  /** Whether {@code batch} has the column types of {@code schema}, whatever their names. */
  public static boolean sameTypes(VectorSchemaRoot batch, Schema schema) {
    List<FieldVector> vectors = batch.getFieldVectors();
    List<Field> fields = schema.getFields();
    boolean same = vectors.size() == fields.size();
    for (int i = 0; same && i < fields.size(); i++) {
      same = vectors.get(i).getField().getType().equals(fields.get(i).getType());
    }
    return same;
  }

  /**
   * {@code batch} under {@code schema}, whose column types it must have ({@link #sameTypes}): the
   * batch itself when it already has the schema, otherwise a new root whose vectors of the schema's
   * fields took over the batch's buffers (no copy), and the emptied batch is closed.
   *
   * <p>Why: an operator that passes batches on unchanged must still deliver its own field names and
   * nullability (a union's, a stage's output edge's); renaming moves buffers, it never copies rows.
   */
  public static VectorSchemaRoot withSchema(VectorSchemaRoot batch, Schema schema) {
    if (batch.getSchema().equals(schema)) {
      return batch;
    }
    List<FieldVector> vectors = batch.getFieldVectors();
    List<Field> fields = schema.getFields();
    int rows = batch.getRowCount();
    List<FieldVector> moved = new ArrayList<>(fields.size());
    for (int i = 0; i < fields.size(); i++) {
      TransferPair pair =
          vectors.get(i).getTransferPair(fields.get(i), vectors.get(i).getAllocator());
      pair.transfer();
      moved.add((FieldVector) pair.getTo());
    }
    batch.close(); // empty now: its buffers moved
    return new VectorSchemaRoot(schema, moved, rows);
  }

  /** The capacity of {@code batch}'s buffers: what keeping it costs the budget. */
  public static long heldBytes(VectorSchemaRoot batch) {
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      for (ArrowBuf buffer : vector.getBuffers(false)) {
        bytes += buffer.capacity();
      }
    }
    return bytes;
  }
}
