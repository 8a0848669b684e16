package dev.quiver.operators.setop;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.CoalescingOutput;
import dev.quiver.operators.kernel.Take;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Emits every input row as many times as its BIGINT {@code times} column says, without that column
 * (the last step of INTERSECT ALL and EXCEPT ALL; see {@code dev.quiver.plan.node.RepeatRows}).
 *
 * <pre>
 *   batch ─► times: [2, 0, NULL, 1] ─► indices [0, 0, 3] (Arrays.fill per row, chunked by the
 *         target batch size) ─► Take (one gather per column) ─► emitted, or coalesced when small
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): one input, whose batches have {@code inputSchema}, with
 * a BIGINT column {@code times}; a row whose times is NULL, zero or negative is dropped. The output
 * has the input's columns without {@code times}, in order, and keeps the rows' order (the copies of
 * a row are adjacent). A row may be repeated any number of times: the copies are spread over as
 * many output batches as they need, none larger than {@link OperatorContext#targetBatchRows()}. A
 * batch in which every row is kept once passes through without a copy; outputs smaller than half
 * the target are coalesced into a pending batch, whose rows are reserved in the memory budget and
 * emitted when it is full or the input finishes.
 */
public final class RepeatRowsOperator implements Operator {
  private final BufferAllocator allocator;
  private final int times;
  private final Schema outputSchema;
  private final int targetRows;
  private final int[] indices;
  private final CoalescingOutput output;
  private boolean finished;
  private boolean closed;

  public RepeatRowsOperator(
      OperatorContext context, Schema inputSchema, int times, BatchSink sink) {
    requireNonNull(context, "context is null");
    requireNonNull(inputSchema, "inputSchema is null");
    List<Field> fields = new ArrayList<>(inputSchema.getFields());
    if (times < 0 || times >= fields.size()) {
      throw new IllegalArgumentException("times column #" + times + " is not in " + inputSchema);
    }
    if (!fields.get(times).getType().equals(new ArrowType.Int(64, true))) {
      throw new IllegalArgumentException("times column " + fields.get(times) + " is not BIGINT");
    }
    fields.remove(times);
    this.times = times;
    this.outputSchema = new Schema(fields);
    this.allocator = context.allocator();
    this.targetRows = context.targetBatchRows();
    this.indices = new int[targetRows];
    this.output = new CoalescingOutput(context, requireNonNull(sink, "sink is null"), this);
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    try (batch) {
      checkInput(input);
      int rows = batch.getRowCount();
      if (rows == 0) {
        return;
      }
      BigIntVector counts = (BigIntVector) batch.getVector(times);
      if (output.emitsDirectly(rows) && rows <= targetRows && allOnce(counts, rows)) {
        output.emit(withoutTimes(batch)); // moves the data columns out: batch keeps only times
        return;
      }
      VectorSchemaRoot data = dataView(batch);
      int n = 0;
      for (int row = 0; row < rows; row++) {
        long copies = counts.isNull(row) ? 0 : counts.get(row);
        while (copies > 0) {
          int run = (int) Math.min(copies, targetRows - n);
          Arrays.fill(indices, n, n + run, row);
          n += run;
          copies -= run;
          if (n == targetRows) {
            emit(data, n);
            n = 0;
          }
        }
      }
      emit(data, n);
    }
  }

  private static boolean allOnce(BigIntVector counts, int rows) {
    if (counts.getNullCount() > 0) {
      return false;
    }
    for (int row = 0; row < rows; row++) {
      if (counts.get(row) != 1) {
        return false;
      }
    }
    return true;
  }

  /** A new batch that owns {@code batch}'s data columns; {@code batch} is left with the times. */
  private VectorSchemaRoot withoutTimes(VectorSchemaRoot batch) {
    List<FieldVector> columns = new ArrayList<>();
    for (int c = 0; c < batch.getFieldVectors().size(); c++) {
      if (c != times) {
        FieldVector source = batch.getVector(c);
        FieldVector moved = source.getField().createVector(allocator);
        source.makeTransferPair(moved).transfer();
        columns.add(moved);
      }
    }
    return new VectorSchemaRoot(outputSchema, columns, batch.getRowCount());
  }

  /** The data columns of {@code batch}, still owned by it (never closed itself). */
  private VectorSchemaRoot dataView(VectorSchemaRoot batch) {
    List<FieldVector> columns = new ArrayList<>(batch.getFieldVectors());
    columns.remove(times);
    return new VectorSchemaRoot(outputSchema, columns, batch.getRowCount());
  }

  /** Gathers rows {@code indices[0 .. n)} of {@code data}: emitted, or coalesced when small. */
  private void emit(VectorSchemaRoot data, int n) {
    int from = 0;
    while (from < n) {
      int remaining = n - from;
      if (output.emitsDirectly(remaining)) {
        output.emit(Take.take(data, indices, from, remaining, allocator));
        return;
      }
      int count = Math.min(output.room(), remaining);
      try (VectorSchemaRoot part = Take.take(data, indices, from, count, allocator)) {
        output.append(part, 0, count, bytes(part));
      }
      from += count;
    }
  }

  private static long bytes(VectorSchemaRoot batch) {
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      bytes += vector.getBufferSize();
    }
    return bytes;
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    finished = true;
    output.flush();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    output.close();
  }

  private void checkInput(int input) {
    if (closed || finished) {
      throw new IllegalStateException(this + " is " + (closed ? "closed" : "finished"));
    }
    if (input != 0) {
      throw new IllegalArgumentException("RepeatRows has one input, not input " + input);
    }
  }

  /** For example {@code RepeatRows[times=#2]}. */
  @Override
  public void flush() {
    if (!closed && !finished) {
      output.flush();
    }
  }

  @Override
  public String toString() {
    return "RepeatRows[times=#" + times + "]";
  }
}
