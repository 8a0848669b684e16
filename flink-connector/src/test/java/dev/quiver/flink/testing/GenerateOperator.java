package dev.quiver.flink.testing;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Turns each number of a sequence source into one batch of {@link #ROWS} rows, so a test knows
 * every row a job must produce: row ids are {@code seed * ROWS + i}, keys and strings derive from
 * the id, and every 17th key is NULL. In sorted mode a task emits its batches at the end, in seed
 * order, so its output is sorted by key (id / 3, so equal keys span batches and producers).
 */
public final class GenerateOperator extends BatchOperator
    implements OneInputStreamOperator<Long, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  public static final int ROWS = 100;
  public static final int DISTINCT_KEYS = 53;
  public static final Schema SCHEMA =
      new Schema(
          List.of(
              new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
              new Field("key", FieldType.nullable(new ArrowType.Int(64, true)), null),
              new Field("skey", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
              new Field("producer", FieldType.notNullable(new ArrowType.Int(32, true)), null)));
  public static final BatchTypeInfo TYPE = BatchTypeInfo.of(SCHEMA, "generated");

  private final boolean sorted;
  private transient List<Long> seeds;

  public GenerateOperator(boolean sorted) {
    this.sorted = sorted;
  }

  /** The key of row {@code id}, or null (never in sorted mode, whose keys ascend with ids). */
  public static Long key(long id, boolean sorted) {
    if (sorted) {
      return id / 3;
    }
    return id % 17 == 0 ? null : (Long) Math.floorMod(id * 2654435761L, (long) DISTINCT_KEYS);
  }

  @Override
  public void open() throws Exception {
    super.open();
    seeds = new ArrayList<>();
  }

  @Override
  public void processElement(StreamRecord<Long> element) {
    if (sorted) {
      seeds.add(element.getValue());
    } else {
      emit(BatchRecord.data(partition(), batch(element.getValue())));
    }
  }

  @Override
  public void endInput() {
    Collections.sort(seeds);
    for (long seed : seeds) {
      emit(BatchRecord.data(partition(), batch(seed)));
    }
  }

  private VectorSchemaRoot batch(long seed) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator());
    BigIntVector ids = (BigIntVector) root.getVector(0);
    BigIntVector keys = (BigIntVector) root.getVector(1);
    VarCharVector strings = (VarCharVector) root.getVector(2);
    IntVector producers = (IntVector) root.getVector(3);
    for (int i = 0; i < ROWS; i++) {
      long id = seed * ROWS + i;
      ids.setSafe(i, id);
      Long key = key(id, sorted);
      if (key == null) {
        keys.setNull(i);
        strings.setNull(i);
      } else {
        keys.setSafe(i, key);
        strings.setSafe(i, ("s" + key).getBytes(StandardCharsets.UTF_8));
      }
      producers.setSafe(i, partition());
    }
    root.setRowCount(ROWS);
    return root;
  }
}
