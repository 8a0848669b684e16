package dev.quiver.flink.runtime;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The last operator before the sink of an {@code INSERT INTO}: makes each result batch a batch of
 * the target table, and counts the rows written.
 *
 * <pre>
 *   final stage task p ─(forward, chained)─► insert rows [p] ─► the target's sink writer [p]
 *                                              │ NOT NULL columns checked
 *                                              │ the target's names and nullability
 *                                              └ accumulator {@value #ROWS_WRITTEN}
 * </pre>
 *
 * <ul>
 *   <li>A NULL in a column the target declares NOT NULL fails the job with one line naming the
 *       column (Flink SQL's {@code table.exec.sink.not-null-enforcer = ERROR}); the planner lets
 *       such a query through, since it cannot always tell that a column is never NULL.
 *   <li>The batch's vectors move into vectors of the target's fields: the same types (the planner
 *       cast them), the target's names and nullability, which the writers put into the files.
 *   <li>Empty batches and end-of-partition markers stop here: a sink writer sees only rows.
 *   <li>The count is kept in checkpoints, so that a task restored from one goes on from the count
 *       of the rows the restored sink holds: the accumulator of a job that ends is the number of
 *       rows written, each once, through any restarts from checkpoints ({@link #rowsWritten}).
 * </ul>
 */
public final class InsertRowsOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  /** The accumulator that holds the rows written. */
  public static final String ROWS_WRITTEN = "quiver-rows-written";

  private final String table;
  private final String schemaJson;
  private transient Schema schema;
  private transient ListState<Long> state;
  private transient long rows;
  private transient LongCounter counter;

  private InsertRowsOperator(String table, Schema target) {
    this.table = table;
    this.schemaJson = target.toJson();
  }

  /**
   * {@code stream} as batches of {@code target}, chained to it, with the uid {@code uid}.
   *
   * @throws IllegalArgumentException if a column of {@code stream} has another type than the
   *     target's (the planner casts every column to its target type)
   */
  public static DataStream<BatchRecord> attach(
      DataStream<BatchRecord> stream, String table, Schema target, String uid) {
    if (!(stream.getType() instanceof BatchTypeInfo type)) {
      throw new IllegalArgumentException("not a stream of Arrow batches: " + stream.getType());
    }
    List<Field> from = type.schema().getFields();
    List<Field> to = target.getFields();
    boolean same = from.size() == to.size();
    for (int i = 0; same && i < from.size(); i++) {
      same = from.get(i).getType().equals(to.get(i).getType());
    }
    if (!same) {
      throw new IllegalArgumentException(
          "the rows " + type.schema() + " are not of the types of " + table + " " + target);
    }
    return stream
        .transform(
            "insert into " + table,
            BatchTypeInfo.of(target, "insert into " + table),
            new InsertRowsOperator(table, target))
        .setParallelism(stream.getParallelism())
        .uid(uid);
  }

  /** The rows the insert tasks of an ended job counted. */
  public static long rowsWritten(JobExecutionResult result) {
    Long rows = result.getAccumulatorResult(ROWS_WRITTEN);
    return rows == null ? 0 : rows;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    state =
        context
            .getOperatorStateStore()
            .getListState(new ListStateDescriptor<>("rows-written", Types.LONG));
    rows = 0;
    if (context.isRestored()) {
      for (Long restored : state.get()) {
        rows += restored;
      }
    }
  }

  @Override
  public void open() throws Exception {
    super.open();
    try {
      schema = Schema.fromJSON(schemaJson);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the schema of " + table, e);
    }
    counter = new LongCounter(rows);
    getRuntimeContext().addAccumulator(ROWS_WRITTEN, counter);
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    state.update(List.of(rows));
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (!record.isData() || record.rowCount() == 0) {
        return;
      }
      VectorSchemaRoot batch = record.batch();
      List<Field> fields = schema.getFields();
      for (int c = 0; c < fields.size(); c++) {
        if (!fields.get(c).isNullable() && batch.getVector(c).getNullCount() > 0) {
          throw new QuiverException(
              ErrorCode.INVALID_ARGUMENT,
              "INSERT INTO "
                  + table
                  + ": the column "
                  + fields.get(c).getName()
                  + " is NOT NULL, and the query gave it a NULL (filter it out, or COALESCE it)");
        }
      }
      List<FieldVector> vectors = new ArrayList<>(fields.size());
      for (int c = 0; c < fields.size(); c++) {
        FieldVector vector = fields.get(c).createVector(allocator());
        vectors.add(vector);
        batch.getVector(c).makeTransferPair(vector).transfer();
      }
      int count = batch.getRowCount();
      rows += count;
      counter.add(count);
      emit(BatchRecord.data(record.partition(), new VectorSchemaRoot(fields, vectors, count)));
    }
  }
}
