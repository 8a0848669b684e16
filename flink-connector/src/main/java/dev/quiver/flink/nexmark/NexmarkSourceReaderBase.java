package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;

/**
 * What every Nexmark source reader does with its splits, whatever it emits (Arrow batches for
 * Quiver, rows for Flink SQL): takes the splits the enumerator assigns, generates them one after
 * the other in the task thread, checkpoints each with its position, and ends when the enumerator
 * has no more and the last split is done. A subclass emits a bounded amount per {@link #emit} call
 * (a batch, a few hundred rows), so that checkpoints and watermarks are never held back for long.
 *
 * @param <T> the record type
 */
public abstract class NexmarkSourceReaderBase<T> implements SourceReader<T, NexmarkSplit> {
  protected final SourceReaderContext context;
  private final ArrayDeque<NexmarkSplit> queue = new ArrayDeque<>();
  private NexmarkSplit current;
  private boolean noMoreSplits;
  private boolean finished;
  private CompletableFuture<Void> available = new CompletableFuture<>();

  protected NexmarkSourceReaderBase(SourceReaderContext context) {
    this.context = requireNonNull(context, "context is null");
  }

  /** Starts generating {@code split} from its position. */
  protected abstract void open(NexmarkSplit split);

  /** Emits the next records of the open split; false when it has nothing left. */
  protected abstract boolean emit(ReaderOutput<T> output);

  /** The open split's next event number to look at. */
  protected abstract long position();

  /** Whether the reader ended because its splits are done (not cancelled or failed). */
  protected final boolean finished() {
    return finished;
  }

  @Override
  public void start() {}

  @Override
  public InputStatus pollNext(ReaderOutput<T> output) {
    while (true) {
      if (current == null) {
        current = queue.poll();
        if (current == null) {
          if (noMoreSplits) {
            finished = true;
            return InputStatus.END_OF_INPUT;
          }
          return InputStatus.NOTHING_AVAILABLE;
        }
        open(current);
      }
      if (emit(output)) {
        return InputStatus.MORE_AVAILABLE;
      }
      current = null;
    }
  }

  @Override
  public List<NexmarkSplit> snapshotState(long checkpointId) {
    List<NexmarkSplit> state = new ArrayList<>(queue.size() + 1);
    if (current != null) {
      state.add(current.at(position()));
    }
    state.addAll(queue);
    return state;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    if (current != null || !queue.isEmpty() || noMoreSplits) {
      return CompletableFuture.completedFuture(null);
    }
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return available;
  }

  @Override
  public void addSplits(List<NexmarkSplit> splits) {
    queue.addAll(splits);
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    available.complete(null);
  }

  /** Releases what the reader holds; nothing here. */
  @Override
  public void close() {}
}
