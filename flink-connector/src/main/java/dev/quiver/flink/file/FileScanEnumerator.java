package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands every reader exactly the splits the planner gave its task, then tells it there are no more.
 *
 * <p>Nothing is decided here at run time: a reader that registers with subtask index {@code t} gets
 * the splits whose {@link FileScanSplit#task()} is {@code t}, however many readers exist and in
 * whatever order they register. Splits returned by a failed reader go back to the same task and are
 * handed to it again when it re-registers. Split requests are ignored (assignment is push-only).
 */
final class FileScanEnumerator implements SplitEnumerator<FileScanSplit, FileScanEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(FileScanEnumerator.class);

  private final SplitEnumeratorContext<FileScanSplit> context;
  private final int tasks;
  private final String name;
  // task → splits not yet handed to that task's reader
  private final Map<Integer, List<FileScanSplit>> pending = new TreeMap<>();

  FileScanEnumerator(
      SplitEnumeratorContext<FileScanSplit> context,
      int tasks,
      String name,
      List<FileScanSplit> unassigned) {
    this.context = requireNonNull(context, "context is null");
    this.tasks = tasks;
    this.name = requireNonNull(name, "name is null");
    unassigned.forEach(this::keep);
  }

  @Override
  public void start() {
    // A mismatch would leave splits of missing tasks unread, or readers idle: fail loudly instead.
    if (context.currentParallelism() != tasks) {
      throw new IllegalStateException(
          name
              + " was planned for "
              + tasks
              + " tasks but runs with parallelism "
              + context.currentParallelism()
              + "; set the source's parallelism to the planned task count");
    }
  }

  @Override
  public void addReader(int subtask) {
    List<FileScanSplit> splits = pending.remove(subtask);
    if (splits != null && !splits.isEmpty()) {
      LOG.debug("{}: task {} reads {} splits", name, subtask, splits.size());
      // One event with all of them: see FileScanReader, which reads once it has every event.
      context.assignSplits(new SplitsAssignment<>(Map.of(subtask, List.copyOf(splits))));
    }
    context.signalNoMoreSplits(subtask);
  }

  @Override
  public void addSplitsBack(List<FileScanSplit> splits, int subtask) {
    for (FileScanSplit split : splits) {
      if (split.task() != subtask) {
        throw new IllegalStateException(
            name + ": task " + subtask + " returned split " + split + " of another task");
      }
      keep(split);
    }
    // A reader that is still registered (it only lost splits) gets them back at once.
    if (context.registeredReaders().containsKey(subtask)) {
      addReader(subtask);
    }
  }

  private void keep(FileScanSplit split) {
    pending.computeIfAbsent(split.task(), t -> new ArrayList<>()).add(split);
  }

  @Override
  public void handleSplitRequest(int subtask, String requesterHostname) {
    // Assignment is pushed on registration; a request can only come from a reader that has all.
  }

  @Override
  public FileScanEnumeratorState snapshotState(long checkpointId) {
    List<FileScanSplit> all = new ArrayList<>();
    pending.values().forEach(all::addAll);
    return new FileScanEnumeratorState(all);
  }

  @Override
  public void close() {}
}
