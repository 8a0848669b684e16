package dev.quiver.flink.nexmark;

import static dev.quiver.flink.testing.FlinkTestJobs.streamingEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkBatchReader;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link NexmarkBatchSource} on a MiniCluster in STREAMING mode, two readers: every event of its
 * kind among the first N exactly once, and each reader's watermarks non-decreasing and trailing its
 * event times by the delay.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(60)
class NexmarkBatchSourceTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final NexmarkConfig CONFIG = NexmarkConfig.DEFAULT.withSeed(5);
  private static final long EVENTS = 23_456;

  @ParameterizedTest
  @EnumSource(EventKind.class)
  void twoReadersEmitEveryEventOfTheKindOnce(EventKind kind, BufferAllocator allocator)
      throws Exception {
    String name = "nexmark-" + kind;
    NexmarkBatchSource source =
        NexmarkBatchSource.builder(kind, EVENTS).config(CONFIG).batchRows(300).build();
    StreamExecutionEnvironment env = streamingEnvironment();
    Recorder.start(name);
    source.stream(env, 2)
        .transform("record", Types.LONG, new Recorder(name))
        .setParallelism(2)
        .sinkTo(new DiscardingSink<>())
        .setParallelism(2);
    env.execute(name);

    List<List<String>> expected =
        NexmarkBatches.rows(
            new NexmarkBatchReader(
                CONFIG, kind, new EventSplit(EVENTS, 0, 1, 1000), 0, 4096, allocator));
    List<List<String>> actual = new ArrayList<>(Recorder.ROWS.get(name));
    Comparator<List<String>> order = Comparator.comparing(List::toString);
    expected.sort(order);
    actual.sort(order);
    assertThat(actual).hasSameSizeAs(expected).isEqualTo(expected);
    for (int task = 0; task < 2; task++) {
      List<Long> watermarks = Recorder.WATERMARKS.get(name + "/" + task);
      assertThat(watermarks).as("task %d's watermarks", task).isNotEmpty().isSorted();
      // The last before end of input trails the task's largest event time by 4 s.
      long last = watermarks.stream().filter(w -> w != Long.MAX_VALUE).max(Long::compare).get();
      assertThat(last).isEqualTo(Recorder.MAX_TIME.get(name + "/" + task) - 4_000);
    }
  }

  @Test
  void eventsSplitAmongReadersAreTheWholeStream() {
    // The enumerator's splits: one per reader, together every event once (NexmarkSplitTest in
    // the nexmark module checks EventSplit itself).
    long total = 0;
    for (int task = 0; task < 3; task++) {
      total += NexmarkSplit.of(EVENTS, task, 3, 1000).events().size();
    }
    assertThat(total).isEqualTo(EVENTS);
  }

  /** Records rows, watermarks and the largest event time per subtask, then drops the batches. */
  static final class Recorder extends AbstractStreamOperator<Long>
      implements OneInputStreamOperator<BatchRecord, Long> {
    private static final long serialVersionUID = 1L;
    static final Map<String, List<List<String>>> ROWS = new ConcurrentHashMap<>();
    static final Map<String, List<Long>> WATERMARKS = new ConcurrentHashMap<>();
    static final Map<String, Long> MAX_TIME = new ConcurrentHashMap<>();

    private final String name;

    Recorder(String name) {
      this.name = name;
    }

    static void start(String name) {
      ROWS.put(name, new CopyOnWriteArrayList<>());
      for (int task = 0; task < 2; task++) {
        WATERMARKS.put(name + "/" + task, new CopyOnWriteArrayList<>());
        MAX_TIME.put(name + "/" + task, Long.MIN_VALUE);
      }
    }

    private String task() {
      return name + "/" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) {
      try (BatchRecord record = element.getValue()) {
        ROWS.get(name).addAll(NexmarkBatches.rows(record.batch()));
        MAX_TIME.merge(task(), element.getTimestamp(), Math::max);
      }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
      WATERMARKS.get(task()).add(mark.getTimestamp());
      super.processWatermark(mark);
    }
  }
}
