package dev.quiver.operators.values;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Literal rows (SQL {@code VALUES}, a {@code SELECT} without {@code FROM}) as batches.
 *
 * <p>Contract (beyond {@link Operator}'s): the operator has no inputs, so {@link #add} and {@link
 * #finish} reject every call; the driver calls {@link #start()} once, which emits all rows in order
 * in batches of exactly {@link OperatorContext#targetBatchRows()} rows except the last (no batch at
 * all for no rows). Every value is checked and converted when the operator is created, so a bad
 * literal fails there, naming its row and column, and {@code start} cannot fail half-way for a bad
 * value. Nothing is kept in Arrow memory between calls.
 *
 * <p>Column types and the Java values they accept ({@code null} is NULL in every column):
 *
 * <ul>
 *   <li>bool: {@link Boolean}; int8, int16, int32, int64: {@link Byte}, {@link Short}, {@link
 *       Integer}, {@link Long} or {@link java.math.BigInteger} within the type's range;
 *   <li>float32, float64: any {@link Number}, converted as by {@code floatValue}/{@code
 *       doubleValue};
 *   <li>decimal128(p, s): {@link java.math.BigDecimal} or an integer, rescaled to {@code s} without
 *       rounding and within {@code p} digits;
 *   <li>utf8: any {@link CharSequence};
 *   <li>date32: {@link java.time.LocalDate}, or an integer of days since 1970-01-01;
 *   <li>timestamp(µs): {@link java.time.LocalDateTime} (read as UTC), {@link java.time.Instant}, or
 *       an integer of microseconds since the epoch.
 * </ul>
 */
public final class ValuesOperator implements Operator {
  private final Schema schema;
  private final BufferAllocator allocator;
  private final int targetRows;
  private final BatchSink sink;
  private final LiteralColumn[] columns;
  private final int rowCount;
  private boolean started;
  private boolean closed;

  /** An operator that emits {@code rows}, each a list of one value per field of {@code schema}. */
  public ValuesOperator(
      OperatorContext context, Schema schema, List<List<Object>> rows, BatchSink sink) {
    requireNonNull(context, "context is null");
    this.schema = requireNonNull(schema, "schema is null");
    requireNonNull(rows, "rows is null");
    this.allocator = context.allocator();
    this.targetRows = context.targetBatchRows();
    this.sink = requireNonNull(sink, "sink is null");
    List<Field> fields = schema.getFields();
    columns = new LiteralColumn[fields.size()];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = LiteralColumn.create(fields.get(c), rows.size());
    }
    for (int r = 0; r < rows.size(); r++) {
      List<Object> row = requireNonNull(rows.get(r), "row is null");
      if (row.size() != columns.length) {
        throw new IllegalArgumentException(
            "row " + r + " has " + row.size() + " values, the schema " + columns.length);
      }
      for (int c = 0; c < columns.length; c++) {
        columns[c].add(r, row.get(c));
      }
    }
    this.rowCount = rows.size();
  }

  @Override
  public int inputs() {
    return 0;
  }

  /** No inputs: always fails, closing {@code batch}. */
  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    batch.close();
    throw new IllegalArgumentException(this + " has no inputs; input " + input + " is invalid");
  }

  /** No inputs: always fails. */
  @Override
  public void finish(int input) {
    throw new IllegalArgumentException(this + " has no inputs; input " + input + " is invalid");
  }

  /** Emits every row; may be called once. */
  public void start() {
    if (closed || started) {
      throw new IllegalStateException(this + (closed ? " is closed" : " was already started"));
    }
    started = true;
    for (int from = 0; from < rowCount; from += targetRows) {
      sink.accept(batch(from, Math.min(targetRows, rowCount - from)));
    }
  }

  /** The schema of the output batches. */
  public Schema outputSchema() {
    return schema;
  }

  @Override
  public void close() {
    closed = true; // nothing is kept in Arrow memory
  }

  /** For example {@code Values[rows=4]}. */
  @Override
  public String toString() {
    return "Values[rows=" + rowCount + "]";
  }

  private VectorSchemaRoot batch(int from, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    try {
      List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
      for (int c = 0; c < columns.length; c++) {
        columns[c].write(vectors.get(c), from, count);
      }
      root.setRowCount(count);
      return root;
    } catch (RuntimeException | Error e) {
      root.close();
      throw e;
    }
  }
}
