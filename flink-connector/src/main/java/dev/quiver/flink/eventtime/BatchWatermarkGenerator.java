package dev.quiver.flink.eventtime;

import dev.quiver.flink.batch.BatchRecord;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Bounded out-of-orderness over batches: the watermark is the largest event time seen so far minus
 * the delay, emitted as soon as a batch raises it (a record is a whole batch, so this is at most
 * once per batch) and again on every periodic emit.
 *
 * <p>Unlike Flink's {@code BoundedOutOfOrdernessWatermarks} (which emits {@code max - delay - 1})
 * the watermark is exactly {@code max - delay}, the value the SQL declaration {@code WATERMARK FOR
 * ts AS ts - INTERVAL ...} gives.
 */
final class BatchWatermarkGenerator implements WatermarkGenerator<BatchRecord> {
  private final long delayMillis;
  private long maxTimestamp = Long.MIN_VALUE;
  private long emitted = Long.MIN_VALUE;

  BatchWatermarkGenerator(long delayMillis) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("negative watermark delay: " + delayMillis);
    }
    this.delayMillis = delayMillis;
  }

  @Override
  public void onEvent(BatchRecord record, long timestamp, WatermarkOutput output) {
    if (timestamp > maxTimestamp) {
      maxTimestamp = timestamp;
      emit(output);
    }
  }

  @Override
  public void onPeriodicEmit(WatermarkOutput output) {
    emit(output);
  }

  private void emit(WatermarkOutput output) {
    if (maxTimestamp == Long.MIN_VALUE) {
      return; // nothing seen yet: no watermark (and no underflow)
    }
    long watermark = maxTimestamp - delayMillis;
    if (watermark > emitted) {
      emitted = watermark;
      output.emitWatermark(new Watermark(watermark));
    }
  }
}
