package dev.quiver.benchmarks.nexmark;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.nexmark.NexmarkEnumerator;
import dev.quiver.flink.nexmark.NexmarkEnumeratorState;
import dev.quiver.flink.nexmark.NexmarkSplit;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkConfig;
import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

/**
 * The Flink SQL side's source: a bounded FLIP-27 source of one kind of Nexmark events as rows
 * ({@code NexmarkRows}), split among the readers exactly as Quiver's {@code NexmarkBatchSource}
 * splits them (the same enumerator and splits). Watermarks are Flink SQL's, from the table's {@code
 * WATERMARK} declaration.
 *
 * @param config the stream
 * @param kind the kind of events emitted
 * @param events events {@code 0 .. events-1} of the stream are split among the readers
 * @param blockEvents events per block of a split
 * @param run the {@link NexmarkRun} to report progress to, or null
 */
record NexmarkRowSource(
    NexmarkConfig config, EventKind kind, long events, int blockEvents, String run)
    implements Source<RowData, NexmarkSplit, NexmarkEnumeratorState> {
  private static final long serialVersionUID = 1L;

  NexmarkRowSource {
    requireNonNull(config, "config is null");
    requireNonNull(kind, "kind is null");
    new EventSplit(events, 0, 1, blockEvents); // checks events and blockEvents
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SourceReader<RowData, NexmarkSplit> createReader(SourceReaderContext context) {
    return new NexmarkRowSourceReader(
        context, config, kind, run == null ? null : NexmarkRun.get(run).emitter());
  }

  @Override
  public SplitEnumerator<NexmarkSplit, NexmarkEnumeratorState> createEnumerator(
      SplitEnumeratorContext<NexmarkSplit> context) {
    return restoreEnumerator(context, new NexmarkEnumeratorState(false, List.of()));
  }

  @Override
  public SplitEnumerator<NexmarkSplit, NexmarkEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<NexmarkSplit> context, NexmarkEnumeratorState checkpoint) {
    return new NexmarkEnumerator(context, events, blockEvents, checkpoint);
  }

  @Override
  public SimpleVersionedSerializer<NexmarkSplit> getSplitSerializer() {
    return NexmarkSplit.Serializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<NexmarkEnumeratorState> getEnumeratorCheckpointSerializer() {
    return NexmarkEnumeratorState.Serializer.INSTANCE;
  }
}
