package dev.quiver.operators.scalar;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/** Row ranges of a batch as new batches that share its buffers where Arrow can. */
final class Slices {
  private Slices() {}

  /**
   * Rows {@code [from, from + count)} of {@code batch} as a new batch owned by the caller. Data
   * buffers are shared (reference counted); a validity bitmap starting inside a byte is copied.
   */
  static VectorSchemaRoot slice(
      VectorSchemaRoot batch, int from, int count, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
    try {
      for (FieldVector vector : batch.getFieldVectors()) {
        TransferPair pair = vector.getTransferPair(allocator);
        pair.splitAndTransfer(from, count);
        vectors.add((FieldVector) pair.getTo());
      }
    } catch (RuntimeException e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
    return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, count);
  }

  /** Bytes held by the buffers of {@code batch}, for budget estimates. */
  static long bytes(VectorSchemaRoot batch) {
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      bytes += vector.getBufferSize();
    }
    return bytes;
  }
}
