package dev.quiver.benchmarks.nexmark;

import dev.quiver.flink.nexmark.NexmarkRows;
import dev.quiver.flink.nexmark.NexmarkSourceReaderBase;
import dev.quiver.flink.nexmark.NexmarkSplit;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkGenerator;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.table.data.RowData;

/**
 * Emits its splits' events of one kind as rows, up to {@link #ROWS_PER_POLL} per poll (nexmark-
 * flink's reader emits one per poll; a few hundred save the mailbox round trips without holding a
 * checkpoint back), and reports its event-time progress after each poll.
 */
final class NexmarkRowSourceReader extends NexmarkSourceReaderBase<RowData> {
  static final int ROWS_PER_POLL = 256;

  private final NexmarkGenerator generator;
  private final NexmarkRows rows;
  private final EventKind kind;
  private final NexmarkRun.Emitter progress; // nullable
  private EventSplit split;
  private long position;

  NexmarkRowSourceReader(
      SourceReaderContext context,
      NexmarkConfig config,
      EventKind kind,
      NexmarkRun.Emitter progress) {
    super(context);
    this.generator = new NexmarkGenerator(config);
    this.rows = new NexmarkRows(generator);
    this.kind = kind;
    this.progress = progress;
  }

  @Override
  protected void open(NexmarkSplit nexmarkSplit) {
    split = nexmarkSplit.events();
    position = nexmarkSplit.position();
  }

  @Override
  protected boolean emit(ReaderOutput<RowData> output) {
    long n = split.nextFrom(position);
    int emitted = 0;
    long last = -1;
    while (n != EventSplit.END && emitted < ROWS_PER_POLL) {
      if (generator.kind(n) == kind) {
        output.collect(rows.row(kind, n));
        emitted++;
        last = n;
      }
      n = split.nextFrom(n + 1);
    }
    position = n == EventSplit.END ? split.events() : n;
    if (progress != null && last >= 0) {
      progress.emitted(generator.dateTime(last), System.nanoTime());
    }
    return emitted > 0 || n != EventSplit.END;
  }

  @Override
  protected long position() {
    return position;
  }
}
