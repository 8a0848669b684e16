package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import java.io.Serializable;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A sink inside the job that counts a query's result rows and drops them: what Flink's {@code
 * blackhole} connector does for Flink SQL, for measuring a query without handing its rows to a
 * caller (no encoding, no collect sink, no decoding).
 *
 * <pre>
 *   final stage task p ─(forward, chained)─► count rows [p] ─► discard
 *                                              │ accumulator {@value #ROWS}: the sum over tasks
 *                                              └ probe (optional): sees each batch before it is dropped
 * </pre>
 *
 * <p>Each task adds its data rows to the Flink accumulator {@value #ROWS} ({@link
 * #rows(JobExecutionResult)} reads the total once the job has ended; a restarted task's rows count
 * again, so the total is exact only for a job that did not restart). A {@link Probe}, serialized
 * into every task, sees each data batch in the task thread before it is closed, and the end of the
 * task's input.
 */
public final class RowCountSink {
  /** The accumulator that holds the row count. */
  public static final String ROWS = "quiver-rows";

  private RowCountSink() {}

  /**
   * What a counting task calls besides counting; one deserialized copy per task, called from the
   * task thread only, so it may keep per-task state in transient fields.
   */
  public interface Probe extends Serializable {
    /** A probe that does nothing. */
    static Probe none() {
      return new Probe() {
        private static final long serialVersionUID = 1L;

        @Override
        public void batch(VectorSchemaRoot batch) {}
      };
    }

    /** A data batch, valid only during the call (it is closed after). */
    void batch(VectorSchemaRoot batch);

    /** The task's input has ended (a bounded job; a stream's task may never get here). */
    default void endOfInput() {}
  }

  /** Ends {@code stream} in a counting task per task of its stage, forward and chained. */
  public static DataStreamSink<Void> attach(DataStream<BatchRecord> stream, Probe probe) {
    requireNonNull(probe, "probe is null");
    int parallelism = stream.getParallelism();
    return stream
        .transform("count rows", Types.VOID, new CountOperator(probe))
        .setParallelism(parallelism)
        .sinkTo(new DiscardingSink<>())
        .name("discard")
        .setParallelism(parallelism);
  }

  /** The rows the counting tasks of an ended job counted. */
  public static long rows(JobExecutionResult result) {
    Long rows = result.getAccumulatorResult(ROWS);
    return rows == null ? 0 : rows;
  }

  private static final class CountOperator extends ArrowOperator<Void>
      implements OneInputStreamOperator<BatchRecord, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final Probe probe;
    private transient LongCounter rows;

    CountOperator(Probe probe) {
      this.probe = probe;
    }

    @Override
    public void open() throws Exception {
      super.open();
      rows = new LongCounter();
      getRuntimeContext().addAccumulator(ROWS, rows);
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) {
      try (BatchRecord record = element.getValue()) {
        if (record.isData()) {
          rows.add(record.rowCount());
          probe.batch(record.batch());
        }
      }
    }

    @Override
    public void endInput() {
      probe.endOfInput();
    }
  }
}
