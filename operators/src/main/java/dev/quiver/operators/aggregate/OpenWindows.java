package dev.quiver.operators.aggregate;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.WindowSplitter;
import dev.quiver.plan.aggregate.AggregateCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The windows a {@link WindowAggregateOperator} has not emitted yet, by window end (micros), each
 * with its own {@link GroupStates}: emitting the complete windows takes the first entries of the
 * map and never looks at the groups of the others.
 *
 * <pre>
 *   end 10:00:10 ─► groups (keys, accumulators)     emitUpTo(10:00:20) ─► 10:00:10, 10:00:20
 *   end 10:00:20 ─► groups                                               emitted and released
 *   end 10:00:30 ─► groups                          (stays)
 * </pre>
 *
 * A batch is split by window end first ({@link WindowSplitter}). Each window reserves its groups in
 * the task's budget as a hash aggregate does, per-row scratch included (grown to the largest slice
 * of a batch the window was given: a cost per open window, which many small HOP windows pay many
 * times); none spills (a refusal the batch cannot get around row by row is the budget's error). Not
 * thread-safe.
 */
final class OpenWindows implements AutoCloseable {
  private static final GroupFeeder.Relief NO_RELIEF = () -> false;

  private record Window(GroupStates groups, GroupFeeder feeder) {}

  private final OperatorContext context;
  private final AggregateLayout layout;
  private final List<AggregateCall> calls;
  private final String owner;
  private final WindowSplitter splitter;
  private final TreeMap<Long, Window> byEnd = new TreeMap<>();

  OpenWindows(
      OperatorContext context, AggregateLayout layout, List<AggregateCall> calls, String owner) {
    this.context = context;
    this.layout = layout;
    this.calls = calls;
    this.owner = owner;
    this.splitter = new WindowSplitter(context.budget(), owner);
  }

  /**
   * Folds each window's rows of {@code batch} (which the caller keeps) into its groups, the window
   * end in column {@code endColumn}; drops the rows of windows ending at or before {@code
   * completeUpTo} (µs) and those without a window end, which {@link #late()} and {@link #nulls()}
   * count.
   */
  void add(VectorSchemaRoot batch, int endColumn, Feed feed, long completeUpTo) {
    splitter.split(batch.getVector(endColumn), batch.getRowCount(), completeUpTo);
    for (int s = 0; s < splitter.windows(); s++) {
      if (splitter.isWhole(s)) {
        add(splitter.end(s), batch, feed);
      } else {
        try (VectorSchemaRoot rows = splitter.rows(batch, s, context.allocator())) {
          add(splitter.end(s), rows, feed);
        }
      }
    }
  }

  /** Rows of the last {@link #add} whose window was complete. */
  int late() {
    return splitter.late();
  }

  /** Rows of the last {@link #add} without a window end. */
  int nulls() {
    return splitter.nulls();
  }

  private void add(long end, VectorSchemaRoot rows, Feed feed) {
    Window window = byEnd.get(end);
    if (window == null) {
      GroupStates groups =
          new GroupStates(context, layout, calls, new Field[calls.size()], owner); // no DISTINCT
      window = new Window(groups, new GroupFeeder(context, groups));
      byEnd.put(end, window);
    }
    window.feeder.add(rows, feed, NO_RELIEF);
  }

  /** Windows held. */
  int size() {
    return byEnd.size();
  }

  /** Groups held, over all windows. */
  long groupCount() {
    long groups = 0;
    for (Window window : byEnd.values()) {
      groups += window.groups.groupCount();
    }
    return groups;
  }

  /**
   * Emits the groups of every window ending at or before {@code end}, in order of end, coalesced
   * into batches of the target size, and releases them.
   */
  void emitUpTo(long end, BatchSink sink) {
    if (byEnd.isEmpty() || byEnd.firstKey() > end) {
      return;
    }
    try (CoalescingSink out =
        new CoalescingSink(layout.output, context.allocator(), context.targetBatchRows(), sink)) {
      for (Map.Entry<Long, Window> first = byEnd.firstEntry();
          first != null && first.getKey() <= end;
          first = byEnd.firstEntry()) {
        first.getValue().groups.emit(out);
        byEnd.pollFirstEntry();
        first.getValue().groups.close();
      }
      out.flush();
    }
  }

  /**
   * Writes the groups of every window as keys and partial states ({@code schema}), window after
   * window in order of end, each window's groups in the order they were made, to {@code out}: each
   * batch is closed after the call.
   */
  void writeStates(Schema schema, Consumer<VectorSchemaRoot> out) {
    int target = context.targetBatchRows();
    for (Window window : byEnd.values()) {
      GroupStates groups = window.groups;
      int count = groups.groupCount();
      for (int from = 0; from < count; from += target) {
        try (VectorSchemaRoot states =
            AggregateOutput.states(
                schema,
                groups.table(),
                groups.accumulators(),
                layout.stateCounts,
                from,
                Math.min(target, count - from),
                context.allocator())) {
          out.accept(states);
        }
      }
    }
  }

  /** Releases every window and the splitter's memory. Idempotent. */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>();
    byEnd.values().forEach(window -> owned.add(window.groups));
    byEnd.clear();
    owned.add(splitter);
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
