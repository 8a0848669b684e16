package dev.quiver.operators.windowed;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.WindowBuffers;
import dev.quiver.operators.sort.PartitionTopN;
import java.util.TreeMap;

/**
 * When a window top-N's {@link WindowedOperator} prunes a window's buffered rows to the top n of
 * each partition ({@link PartitionTopN}): once they exceed the window's threshold, twice the rows
 * its last prune kept and at least a target batch.
 *
 * <pre>
 *   add ─► each window the batch gave rows: rows > threshold? ─► prune ─► threshold = max(2 · kept, B)
 * </pre>
 *
 * Between two prunes of a window at least as many rows arrive as the first one kept, so a prune
 * sorts at most twice the rows that came since the one before: each row is sorted about twice on
 * average, and a window holds at most max(2 · n · partitions, B) rows plus a batch. Thresholds live
 * on the heap, one per open window; a restored operator starts from B again. Not thread-safe.
 */
final class TopNPruning {
  private final PartitionTopN topN;
  private final OperatorContext context;
  private final TreeMap<Long, Integer> pruneAbove = new TreeMap<>(); // by window end

  TopNPruning(PartitionTopN topN, OperatorContext context) {
    this.topN = requireNonNull(topN, "topN is null");
    this.context = requireNonNull(context, "context is null");
  }

  /**
   * Prunes each window that the last {@link WindowBuffers#add} gave rows, if it outgrew its
   * threshold.
   */
  void afterAdd(WindowBuffers windows) {
    for (int w = 0; w < windows.added(); w++) {
      prune(windows, windows.addedEnd(w));
    }
  }

  private void prune(WindowBuffers windows, long end) {
    int batchRows = context.targetBatchRows();
    if (windows.rows(end, 0) <= pruneAbove.getOrDefault(end, batchRows)) {
      return;
    }
    windows.rewrite(
        end, 0, batches -> topN.prune(batches, context.allocator(), context.budget(), batchRows));
    long kept = windows.rows(end, 0);
    pruneAbove.put(end, (int) Math.min(Integer.MAX_VALUE, Math.max(2 * kept, batchRows)));
  }

  /** Forgets the thresholds of the windows ending at or before {@code end} (they ran). */
  void forgetUpTo(long end) {
    pruneAbove.headMap(end, true).clear();
  }

  /** {@code keep row_number() <= 3 per partition}. */
  @Override
  public String toString() {
    return "keep " + topN;
  }
}
