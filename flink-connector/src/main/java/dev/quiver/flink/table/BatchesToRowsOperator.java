package dev.quiver.flink.table;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.ArrowOperator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Row;

/**
 * Unpacks Arrow batches into Flink {@link Row}s (positional, insert-only) holding the Java objects
 * of {@link ColumnReaders}; a new {@code Row} per row, since downstream Table operators may keep
 * it. Each received batch is released once its rows are out; end-of-partition markers are dropped.
 */
public final class BatchesToRowsOperator extends ArrowOperator<Row>
    implements OneInputStreamOperator<BatchRecord, Row> {
  private static final long serialVersionUID = 1L;

  private final String schemaJson;
  private transient ColumnReaders.ColumnReader[] readers;
  private transient StreamRecord<Row> reuse;

  public BatchesToRowsOperator(Schema schema) {
    this.schemaJson = requireNonNull(schema, "schema is null").toJson();
    schema.getFields().forEach(ColumnReaders::of); // fails on the client for unsupported columns
  }

  @Override
  public void open() throws Exception {
    super.open();
    List<Field> fields;
    try {
      fields = Schema.fromJSON(schemaJson).getFields();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    readers = new ColumnReaders.ColumnReader[fields.size()];
    for (int c = 0; c < readers.length; c++) {
      readers[c] = ColumnReaders.of(fields.get(c));
    }
    reuse = new StreamRecord<>(null);
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (!record.isData()) {
        return;
      }
      List<FieldVector> vectors = record.batch().getFieldVectors();
      for (int i = 0; i < record.rowCount(); i++) {
        Row row = Row.withPositions(readers.length);
        for (int c = 0; c < readers.length; c++) {
          FieldVector vector = vectors.get(c);
          row.setField(c, vector.isNull(i) ? null : readers[c].read(vector, i));
        }
        output.collect(reuse.replace(row));
      }
    }
  }
}
