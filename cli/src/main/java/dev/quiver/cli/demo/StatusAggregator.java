package dev.quiver.cli.demo;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
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
 * Counts rows and sums quantity and price per status group (0–3) in tight loops over the Arrow
 * buffers, and emits one row per group it saw at the end. A demonstration stand-in for the hash
 * aggregate operator: groups are a small dense range, sums fit in 64 bits.
 */
final class StatusAggregator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final int GROUPS = 4;

  static final Schema SCHEMA =
      new Schema(
          List.of(
              field("status", new ArrowType.Int(32, true)),
              field("rows", new ArrowType.Int(64, true)),
              field("sum_quantity", new ArrowType.Decimal(38, 2, 128)),
              field("sum_price", new ArrowType.Decimal(38, 2, 128))));
  static final BatchTypeInfo TYPE = BatchTypeInfo.of(SCHEMA, "status totals");

  private transient long[] rows;
  private transient long[] quantity;
  private transient long[] price;

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }

  @Override
  public void open() throws Exception {
    super.open();
    rows = new long[GROUPS];
    quantity = new long[GROUPS];
    price = new long[GROUPS];
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (!record.isData()) {
        return;
      }
      VectorSchemaRoot batch = record.batch();
      ArrowBuf status = batch.getVector(1).getDataBuffer();
      ArrowBuf quantities = batch.getVector(2).getDataBuffer();
      ArrowBuf prices = batch.getVector(3).getDataBuffer();
      int count = batch.getRowCount();
      for (int i = 0; i < count; i++) {
        int group = status.getInt((long) i * 4);
        rows[group]++;
        // The low 64 bits of a small non-negative DECIMAL(15,2) are its unscaled value.
        quantity[group] += quantities.getLong((long) i * 16);
        price[group] += prices.getLong((long) i * 16);
      }
    }
  }

  @Override
  public void endInput() {
    VectorSchemaRoot out = VectorSchemaRoot.create(SCHEMA, allocator());
    out.allocateNew();
    int n = 0;
    for (int group = 0; group < GROUPS; group++) {
      if (rows[group] == 0) {
        continue;
      }
      ((IntVector) out.getVector(0)).set(n, group);
      ((BigIntVector) out.getVector(1)).set(n, rows[group]);
      ((DecimalVector) out.getVector(2)).set(n, quantity[group]);
      ((DecimalVector) out.getVector(3)).set(n, price[group]);
      n++;
    }
    out.setRowCount(n);
    emit(BatchRecord.data(partition(), out));
  }
}
