package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.WindowSplitter;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillWriter;
import dev.quiver.plan.aggregate.AggregateCall;
import java.util.ArrayList;
import java.util.Iterator;
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
 * with its own {@link GroupStates} and the runs of groups it spilled: emitting the complete windows
 * takes the first entries of the map and never looks at the groups of the others.
 *
 * <pre>
 *   end 10:00:10 ─► groups (keys, accumulators)     emitUpTo(10:00:20) ─► 10:00:10, 10:00:20
 *   end 10:00:20 ─► groups                                               emitted and released
 *   end 10:00:30 ─► groups + spilled runs           (stays; at its end: groups ⋈ runs, SpillMerge)
 * </pre>
 *
 * A batch is split by window end first ({@link WindowSplitter}). Each window reserves its groups in
 * the task's budget as a hash aggregate does, per-row scratch included (grown to the largest slice
 * of a batch the window was given: a cost per open window, which many small HOP windows pay many
 * times). When the budget refuses a slice, the operator's {@link GroupFeeder.Relief} makes room
 * with {@link #emitAll} (PARTIAL) or {@link #spillLatest} (FINAL, SINGLE) and the slice is tried
 * again; without relief a refusal the batch cannot get around row by row is the budget's error.
 *
 * <p>A spilled run is one spill file of keys and partial states ({@code stateSchema}) of one
 * window, unpartitioned and finished at once, so no file stays open between spills whatever the
 * number of windows. A window with runs is emitted by {@link SpillMerge#mergeRuns}: the runs are
 * folded into its groups in one pass while they fit (the windows before it are gone by then, so
 * they often do) and are hash-partitioned and merged part by part as the hash aggregate's finish
 * does when they do not. Not thread-safe.
 */
final class OpenWindows implements AutoCloseable {
  private static final String RUN = "window-states";

  /**
   * An open window: its groups in memory and the runs it spilled, in the order they were made. A
   * spilled window that is not being fed is parked: its groups are closed (an empty key table and
   * scratch cost memory too, which many open HOP windows would pay many times) and made again when
   * rows come or the window is emitted.
   */
  private static final class Window implements AutoCloseable {
    GroupStates groups; // null while parked
    GroupFeeder feeder;
    final List<SpillFile> runs = new ArrayList<>();

    Window(OperatorContext context, GroupStates groups) {
      unpark(context, groups);
    }

    int groupCount() {
      return groups == null ? 0 : groups.groupCount();
    }

    boolean isEmpty() {
      return groupCount() == 0 && runs.isEmpty();
    }

    void park() {
      GroupStates closing = groups;
      groups = null;
      feeder = null;
      closing.close();
    }

    void unpark(OperatorContext context, GroupStates groups) {
      this.groups = groups;
      this.feeder = new GroupFeeder(context, groups);
    }

    @Override
    public void close() {
      List<AutoCloseable> owned = new ArrayList<>(runs);
      owned.add(0, groups);
      runs.clear();
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
    }
  }

  private final OperatorContext context;
  private final AggregateLayout layout;
  private final List<AggregateCall> calls;
  private final Schema stateSchema;
  private final String owner;
  private final WindowSplitter splitter;
  private final TreeMap<Long, Window> byEnd = new TreeMap<>();
  private Window feeding; // the window a slice is being folded into, during add
  private long spilledGroups;

  OpenWindows(
      OperatorContext context,
      AggregateLayout layout,
      List<AggregateCall> calls,
      Schema stateSchema,
      String owner) {
    this.context = context;
    this.layout = layout;
    this.calls = calls;
    this.stateSchema = stateSchema;
    this.owner = owner;
    this.splitter = new WindowSplitter(context.budget(), owner);
  }

  /**
   * Folds each window's rows of {@code batch} (which the caller keeps) into its groups, the window
   * end in column {@code endColumn}; drops the rows of windows ending at or before {@code
   * completeUpTo} (µs) and those without a window end, which {@link #late()} and {@link #nulls()}
   * count. When the budget refuses, {@code relief} is asked to make room, also when the window
   * being fed holds nothing (the room is in the other windows).
   */
  void add(
      VectorSchemaRoot batch,
      int endColumn,
      Feed feed,
      long completeUpTo,
      GroupFeeder.Relief relief) {
    GroupFeeder.Relief anyWindow =
        new GroupFeeder.Relief() {
          @Override
          public boolean relieve() {
            return relief.relieve();
          }

          @Override
          public boolean mayFree(GroupStates fed) {
            return true;
          }
        };
    splitter.split(batch.getVector(endColumn), batch.getRowCount(), completeUpTo);
    for (int s = 0; s < splitter.windows(); s++) {
      if (splitter.isWhole(s)) {
        add(splitter.end(s), batch, feed, anyWindow);
      } else {
        try (VectorSchemaRoot rows = splitter.rows(batch, s, context.allocator())) {
          add(splitter.end(s), rows, feed, anyWindow);
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

  private void add(long end, VectorSchemaRoot rows, Feed feed, GroupFeeder.Relief relief) {
    Window window = byEnd.get(end);
    if (window == null) {
      window = new Window(context, open(relief));
      byEnd.put(end, window);
    }
    feeding = window;
    try {
      if (window.groups == null) {
        GroupStates groups = open(relief);
        if (window.groups == null) {
          window.unpark(context, groups);
        } else {
          groups.close(); // the relief emitted the window (PARTIAL), which unparked it
        }
      }
      window.feeder.add(rows, feed, relief);
    } finally {
      feeding = null;
    }
  }

  /**
   * New, empty groups for a window: an empty key table takes memory too, so relief may be needed.
   */
  private GroupStates open(GroupFeeder.Relief relief) {
    while (true) {
      try {
        return new GroupStates(
            context, layout, calls, new Field[calls.size()], owner); // no DISTINCT
      } catch (QuiverException e) {
        if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED || !relief.relieve()) {
          throw e;
        }
      }
    }
  }

  /** Windows held. */
  int size() {
    return byEnd.size();
  }

  /** Spilled runs held, over all windows. */
  int runs() {
    int runs = 0;
    for (Window window : byEnd.values()) {
      runs += window.runs.size();
    }
    return runs;
  }

  /** Groups written to spilled runs so far, counted once per spill. */
  long spilledGroups() {
    return spilledGroups;
  }

  /**
   * Emits the groups of every window ending at or before {@code end}, in order of end, coalesced
   * into batches of the target size, and releases them; a window with spilled runs is merged with
   * them first.
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
        Window window = first.getValue();
        emit(window, out);
        byEnd.pollFirstEntry();
        window.close();
      }
      out.flush();
    }
  }

  /**
   * PARTIAL's relief: emits the partial states of every open window now and lets go of them (the
   * window being fed stays, empty); whether anything was emitted or released.
   */
  boolean emitAll(BatchSink sink) {
    boolean freed = false;
    try (CoalescingSink out =
        new CoalescingSink(layout.output, context.allocator(), context.targetBatchRows(), sink)) {
      for (Iterator<Window> it = byEnd.values().iterator(); it.hasNext(); ) {
        Window window = it.next();
        if (!window.isEmpty()) {
          emit(window, out);
          freed = true;
        }
        if (window == feeding) {
          window.groups.clear(); // its feeder goes on with it (being fed, it is not parked)
        } else {
          it.remove();
          window.close();
          freed = true;
        }
      }
      out.flush();
    }
    return freed;
  }

  /**
   * FINAL's and SINGLE's relief: spills the groups of open windows, the window that ends last
   * first, until half of what the task's budget held is free or no window holds groups in memory;
   * whether any window was spilled.
   *
   * <p>Last-ending first because the watermark completes windows in order of end: the first window
   * is emitted soonest, and emitting it frees its memory anyway, without a write and a read back;
   * the last one stays open longest, so its run waits longest on disk and is merged last, when the
   * windows before it have freed their memory. Half the budget, not one window at a time, so the
   * window being fed does not refill the room at once and spill again in tiny runs.
   */
  boolean spillLatest() {
    MemoryBudget budget = context.budget();
    long goal = budget.used() / 2;
    boolean spilled = false;
    for (Window window : byEnd.descendingMap().values()) {
      if (spilled && budget.used() <= goal) {
        break;
      }
      if (window.groupCount() > 0) {
        spill(window);
        spilled = true;
      }
    }
    return spilled;
  }

  /** Writes the window's groups to a new run and clears them. */
  private void spill(Window window) {
    try (SpillWriter writer = context.spillSpace().create(stateSchema, RUN)) {
      writeGroups(window.groups, writer::write);
      window.runs.add(writer.finish());
    }
    spilledGroups += window.groups.groupCount();
    if (window == feeding) {
      window.groups.clear(); // its feeder goes on with it
    } else {
      window.park();
    }
  }

  /** Emits the window's groups, merged with its runs if it has any. */
  private void emit(Window window, BatchSink out) {
    if (window.runs.isEmpty()) {
      window.groups.emit(out);
      return;
    }
    // The room to merge in: the windows before it are gone; the later ones may be spilled too.
    GroupFeeder.Relief later = this::spillLatest;
    Window outer = feeding;
    feeding = window; // spilled, it is cleared, not parked
    try {
      if (window.groups == null) {
        window.unpark(context, open(later));
      }
      SpillMerge.mergeRuns(context, window.runs, window.groups, out, later, owner);
      window.runs.clear(); // each was closed once read
    } finally {
      feeding = outer;
    }
  }

  /**
   * Writes the groups of every window as keys and partial states, window after window in order of
   * end: each window's groups in memory in the order they were made, then its spilled runs, batch
   * by batch (a group may therefore appear more than once: a restore merges its states). Each batch
   * is valid during the call only. The runs are read with {@link SpillFile#reread}, which leaves
   * them in place: a checkpoint rewrites no spill file, and when {@code out} fails (a checkpoint
   * stream that cannot be written) the windows are as they were, so the task can go on to a later
   * checkpoint.
   */
  void writeStates(Consumer<VectorSchemaRoot> out) {
    for (Window window : byEnd.values()) {
      if (window.groups != null) {
        writeGroups(window.groups, out);
      }
      for (SpillFile run : window.runs) {
        run.rereadEach(context.allocator(), out);
      }
    }
  }

  private void writeGroups(GroupStates groups, Consumer<VectorSchemaRoot> out) {
    int target = context.targetBatchRows();
    int count = groups.groupCount();
    for (int from = 0; from < count; from += target) {
      try (VectorSchemaRoot states =
          AggregateOutput.states(
              stateSchema,
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

  /** Releases every window, its runs and the splitter's memory. Idempotent. */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>(byEnd.values());
    byEnd.clear();
    owned.add(splitter);
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
