package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.kernel.BatchAppender;
import dev.quiver.operators.kernel.Take;
import dev.quiver.plan.join.JoinType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Assembles a join's output batches from row index arrays and hands them to the sink, coalesced.
 *
 * <p>Every method emits batches of at most {@code targetRows} rows: callers pass at most that many
 * pairs, and the row-list methods cut their input into chunks. A batch of at least half the target
 * goes straight to the sink; smaller ones are copied into a pending batch that is emitted once the
 * next small batch would overflow it (and by {@link #flush}), so every emitted batch but the last
 * has at least half the target rows. Row order across batches is therefore not preserved.
 */
final class JoinOutput implements AutoCloseable {
  private final JoinType type;
  private final Schema schema;
  private final List<Field> probeFields;
  private final List<Field> buildFields;
  private final BufferAllocator allocator;
  private final int targetRows;
  private final BatchSink sink;
  private final BatchAppender pending;
  private long rowsEmitted;

  JoinOutput(
      JoinType type,
      Schema probe,
      Schema build,
      BufferAllocator allocator,
      int targetRows,
      BatchSink sink) {
    this.type = requireNonNull(type, "type is null");
    this.schema = type.outputSchema(probe, build);
    int probeColumns = type.emitsLeft() ? probe.getFields().size() : 0;
    this.probeFields = schema.getFields().subList(0, probeColumns);
    this.buildFields =
        type.emitsRight()
            ? schema.getFields().subList(probeColumns, schema.getFields().size())
            : List.of();
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.targetRows = targetRows;
    this.sink = requireNonNull(sink, "sink is null");
    this.pending = new BatchAppender(schema, allocator, targetRows);
  }

  Schema schema() {
    return schema;
  }

  /** Emits {@code count ≤ targetRows} joined pairs (INNER, LEFT, RIGHT, FULL). */
  void pairs(
      VectorSchemaRoot probe, int[] probeRows, VectorSchemaRoot build, int[] buildRows, int count) {
    if (count == 0) {
      return;
    }
    List<FieldVector> columns = new ArrayList<>(schema.getFields().size());
    try {
      take(probe, probeRows, 0, count, columns);
      take(build, buildRows, 0, count, columns);
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, columns);
      throw e;
    }
    emit(columns, count);
  }

  /**
   * Emits probe rows {@code rows[0 .. count)}: alone (LEFT_SEMI, LEFT_ANTI) or with NULL build
   * columns (LEFT, FULL).
   */
  void probeRows(VectorSchemaRoot probe, int[] rows, int count) {
    for (int from = 0; from < count; from += targetRows) {
      int chunk = Math.min(targetRows, count - from);
      List<FieldVector> columns = new ArrayList<>(schema.getFields().size());
      try {
        take(probe, rows, from, chunk, columns);
        nulls(buildFields, chunk, columns);
      } catch (RuntimeException | Error e) {
        AutoCloseables.close(e, columns);
        throw e;
      }
      emit(columns, chunk);
    }
  }

  /**
   * Emits build rows {@code rows[0 .. count)}: alone (RIGHT_SEMI, RIGHT_ANTI) or with NULL probe
   * columns (RIGHT, FULL).
   */
  void buildRows(VectorSchemaRoot build, int[] rows, int count) {
    for (int from = 0; from < count; from += targetRows) {
      int chunk = Math.min(targetRows, count - from);
      List<FieldVector> columns = new ArrayList<>(schema.getFields().size());
      try {
        nulls(probeFields, chunk, columns);
        take(build, rows, from, chunk, columns);
      } catch (RuntimeException | Error e) {
        AutoCloseables.close(e, columns);
        throw e;
      }
      emit(columns, chunk);
    }
  }

  /**
   * Emits every probe row in order with its mark (LEFT_MARK): {@code marks[row]} is 0 (FALSE), 1
   * (TRUE) or 2 (NULL). The probe columns are shared with the probe batch, not copied.
   */
  void markedRows(VectorSchemaRoot probe, byte[] marks) {
    int rows = probe.getRowCount();
    for (int from = 0; from < rows; from += targetRows) {
      int chunk = Math.min(targetRows, rows - from);
      List<FieldVector> columns = new ArrayList<>(schema.getFields().size());
      try {
        for (FieldVector source : probe.getFieldVectors()) {
          TransferPair pair = source.getTransferPair(allocator);
          pair.splitAndTransfer(from, chunk);
          columns.add((FieldVector) pair.getTo());
        }
        BitVector mark = new BitVector(schema.getFields().get(columns.size()), allocator);
        columns.add(mark);
        mark.allocateNew(chunk);
        for (int i = 0; i < chunk; i++) {
          byte value = marks[from + i];
          if (value != 2) {
            mark.set(i, value);
          }
        }
        mark.setValueCount(chunk);
      } catch (RuntimeException | Error e) {
        AutoCloseables.close(e, columns);
        throw e;
      }
      emit(columns, chunk);
    }
  }

  /**
   * Emits every row of {@code probe} unchanged (a LEFT_SEMI join that no longer checks its rows):
   * its buffers are shared, not copied; the caller still closes {@code probe}.
   */
  void passThrough(VectorSchemaRoot probe) {
    int rows = probe.getRowCount();
    if (rows == 0) {
      return;
    }
    List<FieldVector> columns = new ArrayList<>(schema.getFields().size());
    try {
      for (int i = 0; i < probeFields.size(); i++) {
        TransferPair pair = probe.getVector(i).getTransferPair(probeFields.get(i), allocator);
        pair.splitAndTransfer(0, rows);
        columns.add((FieldVector) pair.getTo());
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, columns);
      throw e;
    }
    emit(columns, rows);
  }

  /** The rows emitted so far, including those still pending. */
  long rowsEmitted() {
    return rowsEmitted;
  }

  /** Emits the pending small rows, if any. */
  void flush() {
    if (pending.rowCount() > 0) {
      sink.accept(pending.build());
    }
  }

  @Override
  public void close() {
    pending.close();
  }

  private void take(
      VectorSchemaRoot source, int[] rows, int from, int count, List<FieldVector> columns) {
    for (FieldVector vector : source.getFieldVectors()) {
      columns.add(Take.take(vector, rows, from, count, allocator));
    }
  }

  /** Adds all-NULL columns of {@code fields}: allocated buffers start zeroed, i.e. all invalid. */
  private void nulls(List<Field> fields, int count, List<FieldVector> columns) {
    for (Field field : fields) {
      FieldVector vector = field.createVector(allocator);
      columns.add(vector);
      if (vector instanceof BaseVariableWidthVector) {
        ((BaseVariableWidthVector) vector).setInitialCapacity(count, 0); // no value bytes
      } else {
        vector.setInitialCapacity(count);
      }
      vector.allocateNew();
      vector.setValueCount(count);
    }
  }

  private void emit(List<FieldVector> columns, int rows) {
    rowsEmitted += rows;
    VectorSchemaRoot batch = new VectorSchemaRoot(schema, columns, rows);
    if (rows >= targetRows / 2) {
      sink.accept(batch);
      return;
    }
    try (batch) {
      if (pending.rowCount() + rows > targetRows) {
        sink.accept(pending.build());
      }
      pending.append(batch, 0, rows);
    }
  }
}
