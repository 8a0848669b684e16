package dev.quiver.flink.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/** Rows of a batch moved (not copied where Arrow can avoid it) into a new batch. */
public final class BatchSlices {
  private BatchSlices() {}

  /**
   * Rows {@code [from, from + rows)} of {@code batch} as a new batch of {@code allocator} under
   * {@code schema} (the same types; names and nullability may differ). {@code batch} keeps its
   * other rows and is still the caller's to close.
   */
  public static VectorSchemaRoot slice(
      VectorSchemaRoot batch, int from, int rows, Schema schema, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>(schema.getFields().size());
    try {
      for (int i = 0; i < schema.getFields().size(); i++) {
        Field field = schema.getFields().get(i);
        TransferPair pair = batch.getVector(i).getTransferPair(field, allocator);
        pair.splitAndTransfer(from, rows);
        vectors.add((FieldVector) pair.getTo());
      }
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    return new VectorSchemaRoot(schema.getFields(), vectors, rows);
  }
}
