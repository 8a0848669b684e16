package dev.quiver.operators.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.BatchAppender;
import dev.quiver.operators.kernel.KeyChanges;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.sort.RowComparator;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.window.WindowCall;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Window functions (OVER) over an input sorted by (partition keys, order keys): the output is each
 * input row followed by one column per {@link WindowCall}, in input order.
 *
 * <pre>
 *   sorted batches ─► keep (reserved) ─► partition starts known ─► copy whole partitions into one
 *   (partition keys      until ≥ targetBatchRows rows of         region ─► per call, one pass per
 *    change = start)     complete partitions                     partition ─► sink, ≤ target rows
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): one input, whose batches have the input schema's column
 * types and arrive sorted so that rows of a window partition are adjacent and ordered by the order
 * keys (the planner puts a sort below). Partition boundaries are where a partition key changes
 * (found column at a time by {@link KeyChanges}; across batches by comparing one row); peers are
 * rows with equal order keys. Output is emitted once the partitions it covers are complete, in
 * batches of at most {@link OperatorContext#targetBatchRows()} rows. Batches are kept as they came
 * until their partitions are complete, reserved in the budget; complete partitions are flushed
 * first when the budget refuses a batch, and a single partition that does not fit fails with {@code
 * MEMORY_BUDGET_EXCEEDED} naming this window (the window does not spill; the sort below does).
 *
 * <p>Function semantics and result types are {@link WindowCall}'s. Frames: {@link Frames}; ranking:
 * {@link RankFunctions}; COUNT/SUM/AVG by prefix sums: {@link FrameAggregates};
 * LAG/LEAD/FIRST_VALUE/LAST_VALUE/NTH_VALUE/MIN/MAX by index and gather: {@link ValueFunctions}.
 */
public final class WindowOperator implements Operator {
  private final Schema inputSchema;
  private final Schema outputSchema;
  private final int[] partitionColumns;
  private final int[] orderColumns;
  private final List<SortKey> orderKeys;
  private final List<WindowCall> calls;
  private final OperatorContext context;
  private final MemoryBudget budget;
  private final BatchSink sink;
  private final RowComparator partitionComparator;
  private final List<Pending> pending = new ArrayList<>();
  private int pendingRows; // rows not yet flushed
  private int completeRows; // of those, the rows before the last partition start seen
  private boolean finished;
  private boolean closed;

  /** One kept input batch: rows [from, count) are not flushed yet. */
  private static final class Pending {
    final VectorSchemaRoot batch;
    final RowComparator.KeyColumns keys;
    final boolean[] starts;
    final long reserved;
    int from;

    Pending(VectorSchemaRoot batch, RowComparator.KeyColumns keys, boolean[] starts, long bytes) {
      this.batch = batch;
      this.keys = keys;
      this.starts = starts;
      this.reserved = bytes;
    }
  }

  public WindowOperator(
      OperatorContext context,
      Schema inputSchema,
      List<Integer> partitionKeys,
      List<SortKey> orderKeys,
      List<WindowCall> calls,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    this.inputSchema = requireNonNull(inputSchema, "inputSchema is null");
    this.partitionColumns = partitionKeys.stream().mapToInt(Integer::intValue).toArray();
    this.orderKeys = List.copyOf(orderKeys);
    this.orderColumns = orderKeys.stream().mapToInt(SortKey::column).toArray();
    this.calls = List.copyOf(calls);
    this.budget = context.budget();
    this.sink = requireNonNull(sink, "sink is null");
    this.partitionComparator =
        RowComparator.create(
            inputSchema, partitionKeys.stream().map(SortKey::asc).collect(Collectors.toList()));
    List<Field> fields = new ArrayList<>(inputSchema.getFields());
    for (WindowCall call : calls) {
      SqlType argument =
          call.arguments().isEmpty()
              ? null
              : SqlType.of(inputSchema.getFields().get(call.argument(0)).getType());
      FieldType type =
          new FieldType(call.resultNullable(), call.resultType(argument).arrow(), null);
      fields.add(new Field(call.name(), type, null));
    }
    this.outputSchema = new Schema(fields);
  }

  /** The input columns followed by one result column per call. */
  public Schema outputSchema() {
    return outputSchema;
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    long bytes = 0;
    try {
      checkInput(input);
      if (batch.getRowCount() == 0) {
        batch.close();
        return;
      }
      boolean[] starts = partitionStarts(batch);
      RowComparator.KeyColumns keys = partitionComparator.bind(batch);
      bytes = BatchTransfer.heldBytes(batch);
      if (!budget.tryReserve(bytes)) {
        if (completeRows > 0) {
          flush(completeRows); // make room: complete partitions need not wait
        }
        budget.reserve(
            bytes,
            "the rows of one partition of "
                + this
                + " (a window partition must fit in memory; the sort below spills, the window"
                + " does not)");
      }
      Pending kept = new Pending(batch, keys, starts, bytes);
      if (!pending.isEmpty()) {
        Pending last = pending.get(pending.size() - 1);
        int lastRow = last.batch.getRowCount() - 1;
        starts[0] = partitionComparator.compare(last.keys, lastRow, keys, 0) != 0;
      }
      pending.add(kept);
      for (int i = starts.length - 1; i >= 0; i--) {
        if (starts[i]) {
          completeRows = pendingRows + i;
          break;
        }
      }
      pendingRows += starts.length;
    } catch (RuntimeException | Error e) {
      if (pending.isEmpty() || pending.get(pending.size() - 1).batch != batch) {
        batch.close();
      }
      throw e;
    }
    if (completeRows >= context.targetBatchRows()) {
      flush(completeRows);
    }
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    finished = true;
    if (pendingRows > 0) {
      flush(pendingRows);
    }
  }

  private boolean[] partitionStarts(VectorSchemaRoot batch) {
    int rows = batch.getRowCount();
    boolean[] starts = new boolean[rows];
    boolean[] scratch = new boolean[rows];
    for (int column : partitionColumns) {
      KeyChanges.mark(batch.getVector(column), rows, starts, scratch);
    }
    starts[0] = true;
    return starts;
  }

  /**
   * Copies the first {@code rows} unflushed rows (whole partitions) into one region and emits it.
   */
  private void flush(int rows) {
    boolean[] starts = new boolean[rows];
    long released = 0;
    VectorSchemaRoot region;
    try (BatchAppender appender = new BatchAppender(inputSchema, context.allocator(), rows)) {
      int copied = 0;
      while (copied < rows) {
        Pending first = pending.get(0);
        int count = Math.min(rows - copied, first.batch.getRowCount() - first.from);
        appender.append(first.batch, first.from, count);
        System.arraycopy(first.starts, first.from, starts, copied, count);
        copied += count;
        first.from += count;
        if (first.from == first.batch.getRowCount()) {
          pending.remove(0);
          first.batch.close();
          released += first.reserved;
        }
      }
      region = appender.build();
    } finally {
      pendingRows -= rows;
      completeRows = Math.max(0, completeRows - rows);
    }
    try {
      emit(region, starts);
    } finally {
      budget.release(released);
    }
  }

  private void emit(VectorSchemaRoot region, boolean[] starts) {
    List<FieldVector> vectors = new ArrayList<>(region.getFieldVectors());
    VectorSchemaRoot out;
    try {
      Region boundaries = Region.of(region, starts, orderColumns);
      FieldVector orderKey = orderColumns.length == 0 ? null : region.getVector(orderColumns[0]);
      WindowFunctions functions =
          new WindowFunctions(boundaries, orderKey, orderKeys, context.allocator());
      for (int c = 0; c < calls.size(); c++) {
        Field field = outputSchema.getFields().get(inputSchema.getFields().size() + c);
        vectors.add(functions.compute(calls.get(c), field));
      }
      out = new VectorSchemaRoot(outputSchema, vectors, region.getRowCount());
    } catch (RuntimeException | Error e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    int rows = out.getRowCount();
    int target = context.targetBatchRows();
    if (rows <= target) {
      sink.accept(out);
      return;
    }
    try (VectorSchemaRoot whole = out;
        BatchAppender slices = new BatchAppender(outputSchema, context.allocator(), target)) {
      for (int from = 0; from < rows; from += target) {
        slices.append(whole, from, Math.min(target, rows - from));
        sink.accept(slices.build());
      }
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    long reserved = 0;
    for (Pending kept : pending) {
      kept.batch.close();
      reserved += kept.reserved;
    }
    pending.clear();
    budget.release(reserved);
  }

  /** {@code Window[partition=[#1], order=[#3 ASC NULLS LAST], calls=[rank() AS r]]}. */
  @Override
  public String toString() {
    return "Window[partition="
        + Arrays.stream(partitionColumns)
            .mapToObj(c -> "#" + c)
            .collect(Collectors.joining(", ", "[", "]"))
        + ", order="
        + orderKeys.stream().map(SortKey::toString).collect(Collectors.joining(", ", "[", "]"))
        + ", calls="
        + calls.stream().map(c -> c + " AS " + c.name()).collect(Collectors.joining(", ", "[", "]"))
        + "]";
  }

  private void checkInput(int input) {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    if (input != 0) {
      throw new IllegalArgumentException("input " + input + " is outside [0, 1)");
    }
    if (finished) {
      throw new IllegalStateException(this + " is already finished");
    }
  }
}
