package dev.quiver.flink.testing;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.memory.BatchTransfer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A consumer that appends its own task index ("consumer") to every row it receives and checks the
 * end-of-partition protocol: no producer sends data after its marker or two markers to one
 * consumer, and (when given) exactly {@code expectedMarkers} producers finished here.
 */
public final class TagConsumerOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final int expectedMarkers;
  private transient Map<Integer, Boolean> ended;

  public TagConsumerOperator(int expectedMarkers) {
    this.expectedMarkers = expectedMarkers;
  }

  private static final Field CONSUMER =
      new Field("consumer", FieldType.notNullable(new ArrowType.Int(32, true)), null);

  public static Schema tagged(Schema schema) {
    List<Field> fields = new ArrayList<>(schema.getFields());
    fields.add(CONSUMER);
    return new Schema(fields);
  }

  public static BatchTypeInfo taggedType(Schema schema) {
    return BatchTypeInfo.of(tagged(schema), "tagged");
  }

  @Override
  public void open() throws Exception {
    super.open();
    ended = new HashMap<>();
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (record.isEndOfPartition()) {
        if (ended.put(record.partition(), true) != null) {
          throw new IllegalStateException("two end markers from producer " + record.partition());
        }
        return;
      }
      if (ended.containsKey(record.partition())) {
        throw new IllegalStateException("data after the end marker of " + record.partition());
      }
      VectorSchemaRoot in = BatchTransfer.move(record.batch(), allocator());
      int rows = in.getRowCount();
      IntVector consumer = new IntVector(CONSUMER, allocator());
      consumer.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        consumer.set(i, partition());
      }
      consumer.setValueCount(rows);
      List<FieldVector> vectors = new ArrayList<>(in.getFieldVectors());
      vectors.add(consumer);
      emit(
          BatchRecord.data(
              partition(),
              new VectorSchemaRoot(tagged(in.getSchema()).getFields(), vectors, rows)));
    }
  }

  @Override
  public void endInput() {
    if (expectedMarkers >= 0 && ended.size() != expectedMarkers) {
      throw new IllegalStateException(
          "consumer " + partition() + " saw " + ended.size() + " end markers: " + ended.keySet());
    }
  }
}
