package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.compiler.QueryResult;
import dev.quiver.plan.changelog.RowKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.flink.util.CloseableIterator;

/**
 * How a session hands out an updating result (a changelog, {@link RowKind}): as Flink's SQL client
 * shows one, with the row kind first, {@code op VARCHAR NOT NULL} holding {@code +I}, {@code -U},
 * {@code +U} or {@code -D}, then the query's columns. Inside the plan the row kind is the last
 * column, a TINYINT code ({@link RowKind#FIELD}); this moves and spells it, so that every consumer
 * of a result (the CLI's CSV, JSON and table writers, the Flight SQL server, a Java caller's {@link
 * SqlResult#rows()}) shows it without knowing about changelogs.
 */
final class ChangelogBatches implements CloseableIterator<VectorSchemaRoot> {
  /** The row kind column as results show it. */
  static final Field OP =
      new Field(RowKind.COLUMN, FieldType.notNullable(ArrowType.Utf8.INSTANCE), null);

  private static final byte[][] SYMBOLS = new byte[RowKind.values().length][];

  static {
    for (RowKind kind : RowKind.values()) {
      SYMBOLS[kind.code()] = kind.symbol().getBytes(StandardCharsets.US_ASCII);
    }
  }

  private final QueryResult batches;
  private final Schema schema;

  ChangelogBatches(QueryResult batches, Schema planSchema) {
    this.batches = requireNonNull(batches, "batches is null");
    this.schema = schema(planSchema);
  }

  /** {@code planSchema} (row kind last, a code) as results show it (row kind first, a symbol). */
  static Schema schema(Schema planSchema) {
    List<Field> fields = planSchema.getFields();
    List<Field> shown = new ArrayList<>(fields.size());
    shown.add(OP);
    shown.addAll(fields.subList(0, fields.size() - 1));
    return new Schema(shown);
  }

  @Override
  public boolean hasNext() {
    return batches.hasNext();
  }

  @Override
  public VectorSchemaRoot next() {
    try (VectorSchemaRoot batch = batches.next()) {
      return shown(batch);
    }
  }

  /** A new batch (owned by the caller) with {@code batch}'s buffers, the row kind spelled first. */
  private VectorSchemaRoot shown(VectorSchemaRoot batch) {
    List<FieldVector> vectors = batch.getFieldVectors();
    int rows = batch.getRowCount();
    TinyIntVector codes = (TinyIntVector) vectors.get(vectors.size() - 1);
    List<FieldVector> out = new ArrayList<>(vectors.size());
    try {
      VarCharVector op = (VarCharVector) OP.createVector(codes.getAllocator());
      out.add(op);
      op.allocateNew(2L * rows, rows);
      for (int i = 0; i < rows; i++) {
        op.setSafe(i, SYMBOLS[codes.get(i)]);
      }
      op.setValueCount(rows);
      for (int c = 0; c < vectors.size() - 1; c++) {
        TransferPair transfer = vectors.get(c).getTransferPair(vectors.get(c).getAllocator());
        transfer.transfer();
        out.add((FieldVector) transfer.getTo());
      }
      return new VectorSchemaRoot(schema, out, rows);
    } catch (RuntimeException | Error e) {
      out.forEach(FieldVector::close);
      throw e;
    }
  }

  @Override
  public void close() {
    batches.close();
  }
}
