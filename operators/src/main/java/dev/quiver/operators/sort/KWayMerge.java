package dev.quiver.operators.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.BatchAppender;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.sort.SortKey;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Merges N sorted input streams into one sorted stream of batches, push-based.
 *
 * <pre>
 *   input 0: [1 4 9] [12 20] ─┐
 *   input 1: [2 3] [5 30]    ─┼─► heap of input cursors ─► runs ─► BatchAppender ─► sink
 *   input 2: (finished)      ─┘      (smallest row on top)        (≤ targetBatchRows each)
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): the batches of each input are sorted by the keys, and
 * each comes after that input's earlier batches. A row is emitted only while every unfinished input
 * has a buffered row, because an input that has sent nothing yet may still send a smaller row.
 * Every emitted batch has exactly {@link OperatorContext#targetBatchRows()} rows except the last,
 * which is emitted once all inputs are finished. Rows with equal keys come out by input index, then
 * in input order, so the result is deterministic. Buffered input batches are reserved in the
 * budget, and each is released as soon as its last row is copied.
 *
 * <p>The winner of the heap is copied as a run: its rows that still sort before the runner-up are
 * appended as one range, so inputs that do not interleave row by row cost little per row.
 */
public final class KWayMerge implements Operator {
  private final Schema schema;
  private final RowComparator comparator;
  private final BatchSink sink;
  private final MemoryBudget budget;
  private final int targetRows;
  private final BatchAppender appender;
  private final MergeInput[] inputs;
  private final MergeHeap heap;
  // Unfinished inputs without a buffered row: while there is one, nothing can be emitted.
  private int waiting;
  private int unfinished;
  private boolean closed;

  public KWayMerge(
      OperatorContext context, Schema schema, List<SortKey> keys, int inputCount, BatchSink sink) {
    requireNonNull(context, "context is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.comparator = RowComparator.create(schema, keys);
    this.sink = requireNonNull(sink, "sink is null");
    if (inputCount < 1) {
      throw new IllegalArgumentException("inputCount must be positive: " + inputCount);
    }
    this.budget = context.budget();
    this.targetRows = context.targetBatchRows();
    this.inputs = new MergeInput[inputCount];
    for (int i = 0; i < inputCount; i++) {
      inputs[i] = new MergeInput(i, budget);
    }
    this.heap = new MergeHeap(comparator, inputCount);
    this.waiting = inputCount;
    this.unfinished = inputCount;
    this.appender = new BatchAppender(schema, context.allocator(), targetRows);
  }

  @Override
  public int inputs() {
    return inputs.length;
  }

  /** Buffers the next sorted batch of {@code input} and emits what can be merged. */
  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    MergeInput target;
    try {
      target = input(input);
      checkSchema(batch);
      if (batch.getRowCount() == 0) {
        batch.close();
        return;
      }
      budget.reserve(BatchTransfer.heldBytes(batch), "a buffered batch of merge input " + input);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    if (target.offer(batch, comparator)) {
      waiting--;
      heap.push(target);
      merge();
    }
  }

  /** Marks {@code input} as complete and emits what can be merged. */
  @Override
  public void finish(int input) {
    MergeInput target = input(input);
    target.finished = true;
    unfinished--;
    if (!target.hasRow()) {
      waiting--;
    }
    merge();
  }

  /** Whether every input is finished and every row was emitted. */
  public boolean isDone() {
    return unfinished == 0 && heap.size() == 0;
  }

  /**
   * An unfinished input without a buffered row, which the merge waits for, or -1 when it waits for
   * none. A caller that pulls its inputs (a merge of spilled runs) feeds exactly this input, so the
   * merge never buffers more than one batch per input.
   */
  int waitingInput() {
    if (waiting > 0) {
      for (MergeInput input : inputs) {
        if (!input.finished && !input.hasRow()) {
          return input.index;
        }
      }
    }
    return -1;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    heap.clear();
    for (MergeInput input : inputs) {
      input.close();
    }
    appender.close();
  }

  /** For example {@code KWayMerge[inputs=4, keys=[#0 ASC NULLS LAST]]}. */
  @Override
  public String toString() {
    return "KWayMerge[inputs=" + inputs.length + ", keys=" + comparator.keys() + "]";
  }

  private MergeInput input(int index) {
    if (closed) {
      throw new IllegalStateException("merge is closed");
    }
    if (index < 0 || index >= inputs.length) {
      throw new IllegalArgumentException(
          "input " + index + " is outside [0, " + inputs.length + ")");
    }
    if (inputs[index].finished) {
      throw new IllegalStateException("input " + index + " is already finished");
    }
    return inputs[index];
  }

  private void checkSchema(VectorSchemaRoot batch) {
    List<FieldVector> vectors = batch.getFieldVectors();
    boolean matches = vectors.size() == schema.getFields().size();
    for (int i = 0; matches && i < vectors.size(); i++) {
      matches = vectors.get(i).getField().getType().equals(schema.getFields().get(i).getType());
    }
    if (!matches) {
      throw new IllegalArgumentException(
          "batch schema " + batch.getSchema() + " does not match the merge's " + schema);
    }
  }

  /** Emits runs while every unfinished input has a row; flushes the rest once all are done. */
  private void merge() {
    while (waiting == 0 && heap.size() > 0) {
      MergeInput winner = heap.top();
      int room = targetRows - appender.rowCount();
      int end = heap.runEnd(Math.min(winner.rows, winner.position + room));
      appender.append(winner.batch, winner.position, end - winner.position);
      winner.position = end;
      if (end < winner.rows || winner.advance(comparator)) {
        heap.topChanged();
      } else {
        heap.removeTop(); // no buffered row left: out of the heap until it gets one
        if (!winner.finished) {
          waiting++;
        }
      }
      if (appender.rowCount() == targetRows) {
        sink.accept(appender.build());
      }
    }
    if (isDone() && appender.rowCount() > 0) {
      sink.accept(appender.build());
    }
  }
}
