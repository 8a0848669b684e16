package dev.quiver.flink.watch;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileSplit;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the watched directory every scan interval and hands each new complete file (see {@link
 * CompleteFiles}) to the next reader that asks for work, one file at a time.
 *
 * <p>Listing runs on the coordinator's worker thread and only reads the directory; what is new is
 * decided here, on the coordinator thread, against the set of every path found so far. That set is
 * in the checkpoint ({@link WatchedDirectoryState}) with the files found but not yet handed out, so
 * after a restore no file is read twice and none is lost: a file being read is in its reader's
 * checkpointed state, and a failed reader's files come back through {@link #addSplitsBack}.
 *
 * <p>The set grows with every file the directory has ever had (a path and its version, about a
 * hundred bytes each); a later slice may forget paths older than a retention time.
 */
final class WatchedDirectoryEnumerator
    implements SplitEnumerator<WatchedFileSplit, WatchedDirectoryState> {
  private static final Logger LOG = LoggerFactory.getLogger(WatchedDirectoryEnumerator.class);

  private final SplitEnumeratorContext<WatchedFileSplit> context;
  private final Path directory;
  private final FileFormat format;
  private final long intervalMillis;
  private final Set<String> seen = new LinkedHashSet<>();
  private final ArrayDeque<WatchedFileSplit> pending = new ArrayDeque<>();
  private final Set<Integer> waiting = new LinkedHashSet<>(); // readers that asked for a file

  WatchedDirectoryEnumerator(
      SplitEnumeratorContext<WatchedFileSplit> context,
      Path directory,
      FileFormat format,
      long intervalMillis,
      WatchedDirectoryState restored) {
    this.context = requireNonNull(context, "context is null");
    this.directory = requireNonNull(directory, "directory is null");
    this.format = requireNonNull(format, "format is null");
    this.intervalMillis = intervalMillis;
    seen.addAll(restored.seen());
    pending.addAll(restored.pending());
  }

  @Override
  public void start() {
    context.callAsync(() -> CompleteFiles.list(directory, format), this::found, 0, intervalMillis);
  }

  private void found(List<CompleteFiles.Found> files, Throwable error) {
    if (error != null) {
      throw new FlinkRuntimeException("Cannot list the watched directory " + directory, error);
    }
    for (CompleteFiles.Found file : files) {
      if (seen.add(file.path())) {
        long bytes = Math.max(0, file.version().size());
        pending.add(
            new WatchedFileSplit(new FileSplit(file.path(), format, bytes, -1, file.version()), 0));
        LOG.debug("{}: found {}", directory, file.path());
      }
    }
    assign();
  }

  private void assign() {
    Iterator<Integer> readers = waiting.iterator();
    while (!pending.isEmpty() && readers.hasNext()) {
      int subtask = readers.next();
      readers.remove();
      if (context.registeredReaders().containsKey(subtask)) {
        context.assignSplit(pending.poll(), subtask);
      }
    }
  }

  @Override
  public void handleSplitRequest(int subtask, String requesterHostname) {
    waiting.add(subtask);
    assign();
  }

  @Override
  public void addSplitsBack(List<WatchedFileSplit> splits, int subtask) {
    // A failed reader's files (with the rows it had emitted as of the last checkpoint) go first.
    for (int i = splits.size() - 1; i >= 0; i--) {
      pending.addFirst(splits.get(i));
    }
    assign();
  }

  @Override
  public void addReader(int subtask) {
    // Readers ask for files (handleSplitRequest) when they have none.
  }

  @Override
  public WatchedDirectoryState snapshotState(long checkpointId) {
    return new WatchedDirectoryState(List.copyOf(seen), List.copyOf(pending));
  }

  @Override
  public void close() {}
}
