package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Splits {@code events} among the source's parallel readers, one {@link NexmarkSplit} per reader
 * ({@code EventSplit}'s blocks dealt round robin), each assigned when its reader registers; then
 * tells the reader there are no more. A split given back after a failure goes to the reader of the
 * same index when it registers again.
 */
public final class NexmarkEnumerator
    implements SplitEnumerator<NexmarkSplit, NexmarkEnumeratorState> {
  private final SplitEnumeratorContext<NexmarkSplit> context;
  private final long events;
  private final int blockEvents;
  private final List<NexmarkSplit> pending;
  private boolean created;

  public NexmarkEnumerator(
      SplitEnumeratorContext<NexmarkSplit> context,
      long events,
      int blockEvents,
      NexmarkEnumeratorState state) {
    this.context = requireNonNull(context, "context is null");
    this.events = events;
    this.blockEvents = blockEvents;
    this.created = state.created();
    this.pending = new ArrayList<>(state.pending());
  }

  @Override
  public void start() {
    if (!created) {
      int tasks = context.currentParallelism();
      for (int task = 0; task < tasks; task++) {
        pending.add(NexmarkSplit.of(events, task, tasks, blockEvents));
      }
      created = true;
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    assign(subtaskId);
  }

  @Override
  public void addSplitsBack(List<NexmarkSplit> splits, int subtaskId) {
    pending.addAll(splits);
  }

  @Override
  public void addReader(int subtaskId) {
    assign(subtaskId);
  }

  // Every pending split whose task maps to this reader (the same index unless the parallelism
  // changed across a restore), then no more.
  private void assign(int subtaskId) {
    int readers = context.currentParallelism();
    List<NexmarkSplit> mine = new ArrayList<>();
    pending.removeIf(
        split -> {
          boolean ours = split.events().task() % readers == subtaskId;
          if (ours) {
            mine.add(split);
          }
          return ours;
        });
    for (NexmarkSplit split : mine) {
      context.assignSplit(split, subtaskId);
    }
    context.signalNoMoreSplits(subtaskId);
  }

  @Override
  public NexmarkEnumeratorState snapshotState(long checkpointId) {
    return new NexmarkEnumeratorState(created, pending);
  }

  @Override
  public void close() {}
}
