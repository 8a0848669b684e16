package dev.quiver.flink.eventtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.plan.time.EventTime;
import java.time.Duration;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * The Flink watermark strategy of a source of Arrow batches with an {@link EventTime}.
 *
 * <p>A Flink record is a whole batch, so timestamps and watermarks are assigned per batch: the
 * record's timestamp is the largest event time of its rows ({@link BatchEventTimes}, one loop over
 * the column) and the watermark is the largest event time seen so far minus the delay ({@link
 * BatchWatermarkGenerator}). This is what bounded out-of-orderness gives row by row, at batch
 * boundaries:
 *
 * <ul>
 *   <li>The maximum over the batches seen is the maximum over all their rows, so after each batch
 *       the watermark equals the one a per-row generator would have after the batch's last row.
 *   <li>Between batch boundaries a per-row generator could only have emitted a watermark that is
 *       lower or equal, and no row of a batch reaches anyone before the batch does; so no watermark
 *       ever passes a row it should not, and a row is late (event time at or below the watermark
 *       already emitted) only if it was late row by row too: a per-batch watermark is never ahead
 *       of the per-row one.
 *   <li>The batch's rows are not sorted by event time; operators that need a row's own time read
 *       the column, never the record timestamp.
 * </ul>
 *
 * <p>With an idle timeout, a source split (a Kafka partition, a reader without files) that has
 * emitted nothing for that long is marked idle and stops holding the combined watermark back until
 * it emits again. Choose the timeout well above a source's batch delay, or a partition with thin
 * traffic flips between idle and active.
 */
public final class EventTimeWatermarks {
  private EventTimeWatermarks() {}

  /**
   * The strategy for batches of {@code schema} with event time {@code eventTime}; splits idle for
   * {@code idleTimeout} are ignored (zero: never idle).
   */
  public static WatermarkStrategy<BatchRecord> strategy(
      EventTime eventTime, Schema schema, Duration idleTimeout) {
    requireNonNull(idleTimeout, "idleTimeout is null");
    BatchEventTimes times = new BatchEventTimes(eventTime, schema); // checks the column
    long delay = eventTime.delayMillis();
    WatermarkStrategy<BatchRecord> strategy =
        WatermarkStrategy.<BatchRecord>forGenerator(context -> new BatchWatermarkGenerator(delay))
            .withTimestampAssigner(context -> new BatchTimestampAssigner(times));
    return idleTimeout.isZero() ? strategy : strategy.withIdleness(idleTimeout);
  }
}
