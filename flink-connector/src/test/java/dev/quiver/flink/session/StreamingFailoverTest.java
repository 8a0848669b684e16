package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A streaming window aggregate whose task fails after a checkpoint holding open windows: Flink
 * restarts the job from that checkpoint (Kafka offsets, the partial and final aggregates' windows,
 * the results not yet handed out), and the reader gets every window's row exactly once, equal to
 * the batch answer over the same records.
 *
 * <pre>
 *   stage 0: kafka ─► filter ─► TUMBLE ─► window aggregate PARTIAL ─► [fails once] ─SHUFFLE─►
 *   stage 1: window aggregate FINAL ─► result (checkpointed collect)
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class StreamingFailoverTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final RowSchema BIDS = KafkaBids.SCHEMA;
  private static final long T0 = KafkaBids.T0;
  private static final AtomicInteger FAILURES = new AtomicInteger();

  @Test
  void aTaskFailureAfterACheckpointLosesAndRepeatsNoWindow() throws Exception {
    KAFKA.createTopic("failover", 2);
    send(0, 1600); // closes the windows ending by T0 + 10 s (watermark: max - 5 s)
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    // Stage 0's first attempt fails on the first partial state of a window ending after T0 + 10 s:
    // only events sent after the first windows were read (and so checkpointed) close those.
    long failAfterMicros = (T0 + 10_000) * 1000;
    StageOutputHook hook =
        (stage, output) ->
            stage.id() != 0
                ? output
                : output
                    .forward()
                    .transform(
                        "fail once", output.getType(), new FailOnLaterWindow(failAfterMicros))
                    .setParallelism(output.getParallelism());
    FAILURES.set(0);
    try (QuiverSession session =
        QuiverSession.builder().parallelism(2).configuration(flink).stageOutputHook(hook).build()) {
      session.registerTable(
          "bids_now", BIDS, Optional.empty(), kafka(Map.of("scan.bounded.mode", "latest-offset")));
      session.registerTable(
          "bids", BIDS, Optional.of(new EventTime("ts", Duration.ofSeconds(5))), kafka(Map.of()));
      String query =
          "SELECT window_start, window_end, auction, count(*) AS bids, sum(price) AS total"
              + " FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(ts), INTERVAL '1' SECOND))"
              + " WHERE auction IS NOT NULL"
              + " GROUP BY window_start, window_end, auction";
      try (SqlResult stream = session.sql(String.format(query, "bids"))) {
        List<List<Object>> rows = new ArrayList<>();
        readUntil(stream, rows, 10 * 10);
        assertThat(FAILURES.get()).isZero();
        send(1600, 3200); // the watermark moves to T0 + 26.99 s: windows ending by T0 + 26 s
        readUntil(stream, rows, 26 * 10);
        assertThat(FAILURES.get())
            .as("injected failures (each task of stage 0 fails once)")
            .isPositive();
        LocalDateTime lastClosedEnd = LocalDateTime.of(2026, 1, 1, 0, 0, 26);
        List<List<Object>> expected =
            session.sql(String.format(query, "bids_now")).rows().stream()
                .filter(row -> !((LocalDateTime) row.get(1)).isAfter(lastClosedEnd))
                .toList();
        assertThat(expected).hasSize(26 * 10);
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  private static Map<String, String> kafka(Map<String, String> more) {
    return KafkaBids.options(KAFKA, "failover", more);
  }

  /** Bids [from, to): auction id % 10, price id / 4, event time T0 + id * 10 ms; every 7th NULL. */
  private static void send(long from, long to) throws Exception {
    KafkaBids.send(KAFKA, "failover", from, to);
  }

  private static void readUntil(SqlResult result, List<List<Object>> rows, int count) {
    StreamingResults.readUntil(result, rows, count, DEADLINE);
  }

  /**
   * Passes batches on; in its first attempt, fails on a batch with a timestamp after {@code micros}
   * (a window end of the partial aggregate's output).
   */
  private static final class FailOnLaterWindow extends BatchOperator
      implements OneInputStreamOperator<BatchRecord, BatchRecord> {
    private static final long serialVersionUID = 1L;
    private final long micros;

    FailOnLaterWindow(long micros) {
      this.micros = micros;
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) {
      BatchRecord record = element.getValue();
      if (record.isData()
          && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0
          && hasLaterTime(record.batch())) {
        record.close();
        FAILURES.incrementAndGet();
        throw new IllegalStateException("injected failure in " + taskName());
      }
      emit(record);
    }

    private boolean hasLaterTime(VectorSchemaRoot batch) {
      for (FieldVector vector : batch.getFieldVectors()) {
        if (vector instanceof TimeStampMicroVector times) {
          for (int row = 0; row < batch.getRowCount(); row++) {
            if (!times.isNull(row) && times.get(row) > micros) {
              return true;
            }
          }
        }
      }
      return false;
    }
  }
}
