package dev.quiver.cli.demo;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedWidthVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Turns each number of a sequence into one batch of lineitem-like rows (deterministic per number,
 * so every run produces the same data): order key, a status group 0–3, quantity and price as
 * DECIMAL(15,2), and a ship date.
 */
final class LineitemGenerator extends BatchOperator
    implements OneInputStreamOperator<Long, BatchRecord> {
  private static final long serialVersionUID = 1L;

  static final int ROWS_PER_BATCH = 8192;
  static final Schema SCHEMA =
      new Schema(
          List.of(
              field("orderkey", new ArrowType.Int(64, true)),
              field("status", new ArrowType.Int(32, true)),
              field("quantity", new ArrowType.Decimal(15, 2, 128)),
              field("price", new ArrowType.Decimal(15, 2, 128)),
              field("shipdate", new ArrowType.Date(DateUnit.DAY))));
  static final BatchTypeInfo TYPE = BatchTypeInfo.of(SCHEMA, "lineitems");

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }

  @Override
  public void processElement(StreamRecord<Long> element) {
    long seed = element.getValue();
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator());
    try {
      fill(root, seed);
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
    emit(BatchRecord.data(partition(), root));
  }

  private static void fill(VectorSchemaRoot root, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (FieldVector vector : root.getFieldVectors()) {
      ((FixedWidthVector) vector).allocateNew(ROWS_PER_BATCH);
    }
    BigIntVector orderkeys = (BigIntVector) root.getVector(0);
    IntVector statuses = (IntVector) root.getVector(1);
    DecimalVector quantities = (DecimalVector) root.getVector(2);
    DecimalVector prices = (DecimalVector) root.getVector(3);
    DateDayVector shipdates = (DateDayVector) root.getVector(4);
    for (int i = 0; i < ROWS_PER_BATCH; i++) {
      long quantityCents = (1 + random.nextInt(50)) * 100L;
      orderkeys.set(i, seed * ROWS_PER_BATCH + i);
      statuses.set(i, random.nextInt(4));
      quantities.set(i, quantityCents);
      prices.set(i, quantityCents * (900 + random.nextInt(100_000)) / 100);
      shipdates.set(i, 8035 + random.nextInt(2526)); // 1992-01-02 .. 1998-12-01
    }
    root.setRowCount(ROWS_PER_BATCH);
  }
}
