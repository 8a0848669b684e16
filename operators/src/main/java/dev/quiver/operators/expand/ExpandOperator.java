package dev.quiver.operators.expand;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.node.Expand;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Emits every input row once per grouping set, the group keys outside the set all NULL, plus the
 * set's grouping id as a last BIGINT column ({@link Expand}: bit {@code k-1-i} is 1 when key {@code
 * i} is not in the set), so that an aggregate keyed on (keys, grouping id) computes GROUPING SETS,
 * ROLLUP and CUBE in one pass.
 *
 * <pre>
 *   input batch (a, b, v) ─► set 0: [a][b][v][gid 0]     columns of the input: shared buffers
 *                         ─► set 1: [a][N][v][gid 1]     N: one all-NULL vector per key, and one
 *                         ─► set 2: [N][N][v][gid 3]        grouping id vector per set, made once
 *                                                           and shared by every batch
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): one input. For each input batch (sliced to at most
 * {@link OperatorContext#targetBatchRows()} rows), one output batch per set, in set order, with the
 * input's rows in input order. Nothing is copied row by row: the columns a set keeps share the
 * input's buffers, and the NULL keys and grouping ids are constant vectors, allocated once for a
 * batch size and shared (reference-counted) by every output batch of that size; only they are kept
 * between calls, reserved in the task's budget. A NULL key of the input stays a NULL with its key's
 * bit 0; the NULL of a set's missing key has bit 1. Empty batches are closed.
 */
public final class ExpandOperator implements Operator {
  private final BufferAllocator allocator;
  private final MemoryBudget budget;
  private final int targetRows;
  private final BatchSink sink;
  private final Schema schema;
  private final int inputColumns;
  private final boolean[][] nulled; // [set][column]: a key outside the set
  private final long[] ids;
  private final String description;
  // The constant vectors for batches of up to constantRows rows: per column (null where not a key
  // that some set drops) and per set.
  private final FieldVector[] nulls;
  private final BigIntVector[] idVectors;
  private int constantRows = -1;
  private long reserved;
  private boolean finished;
  private boolean closed;

  /**
   * @param input the schema of the input batches
   * @param keys the group key columns, in grouping id bit order
   * @param sets the grouping sets, each a subset of {@code keys}, in output order
   */
  public ExpandOperator(
      OperatorContext context,
      Schema input,
      List<Integer> keys,
      List<List<Integer>> sets,
      BatchSink sink) {
    requireNonNull(context, "context is null");
    requireNonNull(input, "input is null");
    requireNonNull(keys, "keys is null");
    requireNonNull(sets, "sets is null");
    this.allocator = context.allocator();
    this.budget = context.budget();
    this.targetRows = context.targetBatchRows();
    this.sink = requireNonNull(sink, "sink is null");
    this.inputColumns = input.getFields().size();
    if (sets.isEmpty() || keys.size() > Expand.MAX_KEYS) {
      throw new IllegalArgumentException(
          "an expand needs 1 or more sets and at most " + Expand.MAX_KEYS + " keys: " + sets);
    }
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < inputColumns; i++) {
      Field field = input.getFields().get(i);
      fields.add(
          keys.contains(i)
              ? new Field(field.getName(), FieldType.nullable(field.getType()), null)
              : field);
    }
    fields.add(new Field("grouping_id", FieldType.notNullable(new ArrowType.Int(64, true)), null));
    this.schema = new Schema(fields);
    this.nulled = new boolean[sets.size()][inputColumns];
    this.ids = new long[sets.size()];
    for (int s = 0; s < sets.size(); s++) {
      List<Integer> set = sets.get(s);
      if (!keys.containsAll(set)) {
        throw new IllegalArgumentException("grouping set " + set + " is not a subset of " + keys);
      }
      for (int key : keys) {
        if (key < 0 || key >= inputColumns) {
          throw new IllegalArgumentException("group key " + key + " is not an input column");
        }
        nulled[s][key] = !set.contains(key);
      }
      ids[s] = Expand.groupingId(keys, set);
    }
    this.nulls = new FieldVector[inputColumns];
    this.idVectors = new BigIntVector[sets.size()];
    this.description = "Expand[keys=" + keys + ", sets=" + sets + "]";
  }

  /** The schema of the output batches: the input's, keys nullable, then the grouping id. */
  public Schema schema() {
    return schema;
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    try (batch) {
      if (closed || finished) {
        throw new IllegalStateException(description + " is " + (closed ? "closed" : "finished"));
      }
      if (input != 0) {
        throw new IllegalArgumentException(description + " has one input, not input " + input);
      }
      int rows = batch.getRowCount();
      for (int from = 0; from < rows; from += targetRows) {
        int count = Math.min(targetRows, rows - from);
        constants(count);
        for (int s = 0; s < ids.length; s++) {
          sink.accept(expand(batch, s, from, count));
        }
      }
    }
  }

  /** Rows {@code [from, from + count)} of {@code batch} as set {@code s} sees them. */
  private VectorSchemaRoot expand(VectorSchemaRoot batch, int s, int from, int count) {
    List<FieldVector> vectors = new ArrayList<>(inputColumns + 1);
    try {
      for (int c = 0; c < inputColumns; c++) {
        Field field = schema.getFields().get(c);
        if (nulled[s][c]) {
          vectors.add(share(nulls[c], field, 0, count));
        } else {
          vectors.add(share(batch.getVector(c), field, from, count));
        }
      }
      vectors.add(share(idVectors[s], schema.getFields().get(inputColumns), 0, count));
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
    return new VectorSchemaRoot(schema, vectors, count);
  }

  /** A vector of {@code field} sharing rows {@code [from, from + count)} of {@code vector}. */
  private FieldVector share(FieldVector vector, Field field, int from, int count) {
    TransferPair pair = vector.getTransferPair(field, allocator);
    pair.splitAndTransfer(from, count);
    return (FieldVector) pair.getTo();
  }

  /**
   * Makes the NULL keys and grouping ids for batches of up to {@code rows} rows, unless they exist:
   * a shorter batch shares the first rows of the same vectors.
   */
  private void constants(int rows) {
    if (rows <= constantRows) {
      return;
    }
    releaseConstants();
    try {
      for (int c = 0; c < inputColumns; c++) {
        if (droppedBySomeSet(c)) {
          nulls[c] = allNull(schema.getFields().get(c), rows);
        }
      }
      for (int s = 0; s < ids.length; s++) {
        BigIntVector id = new BigIntVector(schema.getFields().get(inputColumns), allocator);
        idVectors[s] = id;
        id.allocateNew(rows);
        for (int r = 0; r < rows; r++) {
          id.set(r, ids[s]);
        }
        id.setValueCount(rows);
      }
      long bytes = 0;
      for (FieldVector vector : nulls) {
        bytes += vector == null ? 0 : vector.getBufferSize();
      }
      for (BigIntVector vector : idVectors) {
        bytes += vector.getBufferSize();
      }
      budget.reserve(bytes, description + " constant columns");
      reserved = bytes;
      constantRows = rows;
    } catch (RuntimeException | Error e) {
      releaseConstants();
      throw e;
    }
  }

  private boolean droppedBySomeSet(int column) {
    for (boolean[] set : nulled) {
      if (set[column]) {
        return true;
      }
    }
    return false;
  }

  /** A vector of {@code rows} NULLs: freshly allocated validity buffers are zero. */
  private FieldVector allNull(Field field, int rows) {
    FieldVector vector = field.createVector(allocator);
    try {
      if (vector instanceof BaseVariableWidthVector variable) {
        variable.setInitialCapacity(rows, 0); // no value bytes, only offsets
      } else if (vector instanceof BaseLargeVariableWidthVector variable) {
        variable.setInitialCapacity(rows, 0);
      } else {
        vector.setInitialCapacity(rows);
      }
      vector.allocateNew();
      vector.setValueCount(rows);
      return vector;
    } catch (RuntimeException | Error e) {
      vector.close();
      throw e;
    }
  }

  private void releaseConstants() {
    List<AutoCloseable> owned = new ArrayList<>();
    for (int c = 0; c < nulls.length; c++) {
      owned.add(nulls[c]);
      nulls[c] = null;
    }
    for (int s = 0; s < idVectors.length; s++) {
      owned.add(idVectors[s]);
      idVectors[s] = null;
    }
    budget.release(reserved);
    reserved = 0;
    constantRows = -1;
    try {
      AutoCloseables.close(owned);
    } catch (Exception e) {
      throw new IllegalStateException("cannot release the constant columns of " + description, e);
    }
  }

  @Override
  public void finish(int input) {
    if (input != 0) {
      throw new IllegalArgumentException(description + " has one input, not input " + input);
    }
    finished = true;
    releaseConstants(); // no more batches: nothing to share them with
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    releaseConstants();
  }

  /** For example {@code Expand[keys=[0, 1], sets=[[0, 1], [0], []]]}. */
  @Override
  public String toString() {
    return description;
  }
}
