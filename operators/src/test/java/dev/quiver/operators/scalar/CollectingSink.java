package dev.quiver.operators.scalar;

import dev.quiver.operators.BatchSink;
import dev.quiver.testing.BatchRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Keeps every batch it receives; closes them all on {@link #close()}. */
final class CollectingSink implements BatchSink, AutoCloseable {
  final List<VectorSchemaRoot> batches = new ArrayList<>();

  @Override
  public void accept(VectorSchemaRoot batch) {
    batches.add(batch);
  }

  List<List<Object>> rows() {
    List<List<Object>> rows = new ArrayList<>();
    for (VectorSchemaRoot batch : batches) {
      rows.addAll(BatchRows.rows(batch));
    }
    return rows;
  }

  List<Integer> sizes() {
    List<Integer> sizes = new ArrayList<>();
    for (VectorSchemaRoot batch : batches) {
      sizes.add(batch.getRowCount());
    }
    return sizes;
  }

  @Override
  public void close() {
    batches.forEach(VectorSchemaRoot::close);
    batches.clear();
  }
}
