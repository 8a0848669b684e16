package dev.quiver.operators.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/** Moves and shares of whole batches between owners, without copying data. */
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
}
