package dev.quiver.flink.eventtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import org.apache.flink.api.common.eventtime.TimestampAssigner;

/**
 * Gives each data record the largest event time of its batch (see {@link BatchEventTimes}); a
 * marker, or a batch without event times, keeps the timestamp it came with.
 */
final class BatchTimestampAssigner implements TimestampAssigner<BatchRecord> {
  private final BatchEventTimes eventTimes;

  BatchTimestampAssigner(BatchEventTimes eventTimes) {
    this.eventTimes = requireNonNull(eventTimes, "eventTimes is null");
  }

  @Override
  public long extractTimestamp(BatchRecord record, long recordTimestamp) {
    if (!record.isData()) {
      return recordTimestamp;
    }
    long max = eventTimes.max(record.batch());
    return max == BatchEventTimes.NONE ? recordTimestamp : max;
  }
}
