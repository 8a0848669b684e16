package dev.quiver.flink.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkBatchReader;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkSchemas;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Snapshot → restore of the batch source's reader: a reader restored from another's checkpointed
 * splits (through the split serializer) emits exactly the rows the first had not, and the
 * enumerator's state round-trips.
 */
@ExtendWith(ArrowLeakCheck.class)
class NexmarkSourceReaderTest {
  private static final NexmarkConfig CONFIG = NexmarkConfig.DEFAULT.withSeed(9);

  @Test
  void aRestoredReaderEmitsWhatTheCheckpointedOneHadNot(BufferAllocator allocator)
      throws Exception {
    NexmarkSplit split = NexmarkSplit.of(30_000, 1, 2, 1000);
    List<List<String>> rows = new ArrayList<>();
    List<NexmarkSplit> checkpoint;
    NexmarkBatchSourceReader first = reader();
    try {
      first.start();
      first.addSplits(List.of(split));
      first.notifyNoMoreSplits();
      Output output = new Output(rows, allocator);
      for (int i = 0; i < 5; i++) {
        assertThat(first.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
      }
      checkpoint = first.snapshotState(1);
    } finally {
      first.close();
    }
    assertThat(rows).hasSize(5 * 1000);
    assertThat(checkpoint).hasSize(1);
    NexmarkSplit restored =
        NexmarkSplit.Serializer.INSTANCE.deserialize(
            1, NexmarkSplit.Serializer.INSTANCE.serialize(checkpoint.get(0)));
    assertThat(restored).isEqualTo(checkpoint.get(0));
    assertThat(restored.position()).isGreaterThan(0);

    NexmarkBatchSourceReader second = reader();
    try {
      second.start();
      second.addSplits(List.of(restored));
      second.notifyNoMoreSplits();
      Output output = new Output(rows, allocator);
      while (second.pollNext(output) == InputStatus.MORE_AVAILABLE) {}
      assertThat(second.pollNext(output)).isEqualTo(InputStatus.END_OF_INPUT);
    } finally {
      second.close();
    }
    List<List<String>> expected =
        NexmarkBatches.rows(
            new NexmarkBatchReader(CONFIG, EventKind.BID, split.events(), 0, 4096, allocator));
    assertThat(rows).hasSize(13_800).isEqualTo(expected); // 15,000 events of the split
  }

  @Test
  void enumeratorStateRoundTrips() throws Exception {
    NexmarkEnumeratorState state =
        new NexmarkEnumeratorState(
            true, List.of(NexmarkSplit.of(100, 0, 2, 10), NexmarkSplit.of(100, 1, 2, 10).at(57)));
    NexmarkEnumeratorState.Serializer serializer = NexmarkEnumeratorState.Serializer.INSTANCE;
    assertThat(serializer.deserialize(1, serializer.serialize(state))).isEqualTo(state);
    assertThat(new EventSplit(100, 1, 2, 10).nextFrom(57)).isEqualTo(57);
  }

  private static NexmarkBatchSourceReader reader() {
    return new NexmarkBatchSourceReader(
        new Context(), CONFIG, EventKind.BID, 1000, TimeUnit.MILLISECOND, null);
  }

  /**
   * Copies each batch's rows as a downstream task receives them over the network: through the batch
   * serializer (the generator writes the buffers directly; Arrow IPC must read them as written).
   */
  private record Output(List<List<String>> rows, BufferAllocator allocator)
      implements ReaderOutput<BatchRecord> {
    @Override
    public void collect(BatchRecord record) {
      BatchSerializer serializer =
          new BatchSerializer(NexmarkSchemas.BID, BatchCompression.NONE, "test");
      DataOutputSerializer out = new DataOutputSerializer(1 << 16);
      try {
        serializer.serialize(record, out);
        try (BatchRecord received =
            serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()), allocator)) {
          rows.addAll(NexmarkBatches.rows(received.batch()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void collect(BatchRecord record, long timestamp) {
      collect(record);
    }

    @Override
    public void emitWatermark(Watermark watermark) {}

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    @Override
    public SourceOutput<BatchRecord> createOutputForSplit(String splitId) {
      return this;
    }

    @Override
    public void releaseOutputForSplit(String splitId) {}
  }

  /** Subtask 1 of 2; nothing else is used. */
  private static final class Context implements SourceReaderContext {
    @Override
    public SourceReaderMetricGroup metricGroup() {
      return null;
    }

    @Override
    public Configuration getConfiguration() {
      return new Configuration();
    }

    @Override
    public String getLocalHostName() {
      return "localhost";
    }

    @Override
    public int getIndexOfSubtask() {
      return 1;
    }

    @Override
    public void sendSplitRequest() {}

    @Override
    public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {}

    @Override
    public UserCodeClassLoader getUserCodeClassLoader() {
      return null;
    }

    @Override
    public int currentParallelism() {
      return 2;
    }
  }
}
