package dev.quiver.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.BatchSink;
import dev.quiver.testing.BatchRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/** A sink for operator tests: validates, records and closes every batch. */
final class CollectingSink implements BatchSink {
  final List<List<Object>> rows = new ArrayList<>();
  final List<Integer> batchSizes = new ArrayList<>();

  @Override
  public void accept(VectorSchemaRoot batch) {
    try (batch) {
      SortTesting.validate(batch);
      batchSizes.add(batch.getRowCount());
      rows.addAll(BatchRows.rows(batch));
    }
  }

  /** Every batch is non-empty and has {@code targetRows} rows, except the last with fewer. */
  void assertBatchesFilled(int targetRows) {
    for (int b = 0; b < batchSizes.size(); b++) {
      assertThat(batchSizes.get(b)).isPositive().isLessThanOrEqualTo(targetRows);
      if (b < batchSizes.size() - 1) {
        assertThat(batchSizes.get(b)).isEqualTo(targetRows);
      }
    }
  }

  /** {@code batch} with column {@code index} replaced by {@code values}; closes {@code batch}. */
  static VectorSchemaRoot withColumn(
      VectorSchemaRoot batch, int index, List<?> values, BufferAllocator allocator) {
    Field field = batch.getSchema().getFields().get(index);
    VectorSchemaRoot column = SortTesting.column(field, values, allocator);
    List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors());
    vectors.get(index).close();
    vectors.set(index, column.getVector(0)); // the one-column root needs no closing of its own
    return new VectorSchemaRoot(batch.getSchema(), vectors, values.size());
  }
}
