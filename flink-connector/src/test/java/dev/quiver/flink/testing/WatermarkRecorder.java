package dev.quiver.flink.testing;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchOperator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Passes batches on and records, under a name the test chooses, every watermark and every batch
 * timestamp it sees (the MiniCluster runs in the test's JVM, so the test reads them directly).
 */
public final class WatermarkRecorder extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  private static final Map<String, List<Long>> WATERMARKS = new ConcurrentHashMap<>();
  private static final Map<String, List<Long>> TIMESTAMPS = new ConcurrentHashMap<>();

  private final String name;

  private WatermarkRecorder(String name) {
    this.name = name;
  }

  /** {@code input} through a recorder named {@code name} (parallelism 1, after all tasks). */
  public static DataStream<BatchRecord> record(DataStream<BatchRecord> input, String name) {
    WATERMARKS.put(name, new CopyOnWriteArrayList<>());
    TIMESTAMPS.put(name, new CopyOnWriteArrayList<>());
    return input
        .global()
        .transform("record watermarks", input.getType(), new WatermarkRecorder(name))
        .setParallelism(1);
  }

  /** The watermarks the recorder named {@code name} has seen, in order. */
  public static List<Long> watermarks(String name) {
    return List.copyOf(WATERMARKS.get(name));
  }

  /** The timestamps of the batches it has seen, in order (Long.MIN_VALUE: none). */
  public static List<Long> timestamps(String name) {
    return List.copyOf(TIMESTAMPS.get(name));
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    TIMESTAMPS.get(name).add(element.hasTimestamp() ? element.getTimestamp() : Long.MIN_VALUE);
    emit(element.getValue());
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    WATERMARKS.get(name).add(mark.getTimestamp());
    super.processWatermark(mark);
  }
}
