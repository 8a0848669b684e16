package dev.quiver.operators.sort;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A pull-driven {@link KWayMerge} over sorted sources (spilled runs, a sorted in-memory buffer):
 * the merge is fed one batch of exactly the source it waits for, so it holds about one batch per
 * source however long the sources are.
 *
 * <pre>
 *   source 0 ─next()─┐
 *   source 1 ─next()─┼─► KWayMerge ─► sink        waitingInput() says whose batch ran out;
 *   source 2 ─next()─┘   (ties: lower source first) only that source is read next
 * </pre>
 */
final class RunMerge {
  private RunMerge() {}

  /** Sorted batches of one merge input, pulled one at a time. */
  interface Source extends AutoCloseable {
    /** The next batch, owned by the caller, or {@code null} when the source is exhausted. */
    VectorSchemaRoot next();

    /** Releases what the source holds (a spilled run deletes its file). Idempotent. */
    @Override
    default void close() {}
  }

  /**
   * Merges {@code sources} in key order into {@code sink}, in batches of the context's target size.
   * Rows with equal keys come out by source index, then in source order. Every source is closed,
   * each as soon as it is exhausted, all of them when the merge fails.
   */
  static void merge(
      OperatorContext context,
      RowComparator comparator,
      List<? extends Source> sources,
      BatchSink sink) {
    Schema schema = comparator.schema();
    try (KWayMerge merge =
        new KWayMerge(context, schema, comparator.keys(), sources.size(), sink)) {
      for (int input = 0; input < sources.size(); input++) {
        feed(merge, sources.get(input), input);
      }
      for (int input = merge.waitingInput(); input >= 0; input = merge.waitingInput()) {
        feed(merge, sources.get(input), input);
      }
      if (!merge.isDone()) {
        throw new IllegalStateException(merge + " stopped before its inputs were merged");
      }
    } catch (RuntimeException | Error e) {
      for (Source source : sources) {
        try {
          source.close();
        } catch (RuntimeException | Error suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  private static void feed(KWayMerge merge, Source source, int input) {
    VectorSchemaRoot batch = source.next();
    if (batch == null) {
      source.close();
      merge.finish(input);
    } else {
      merge.add(input, batch);
    }
  }
}
