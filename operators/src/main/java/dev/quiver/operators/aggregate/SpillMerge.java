package dev.quiver.operators.aggregate;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import dev.quiver.plan.aggregate.AggregateCall;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The finish of a FINAL or SINGLE hash aggregate that spilled: the groups still in memory are
 * spilled too, then each partition is merged alone, with all of the budget, into the emptied {@link
 * GroupStates} (states merged as FINAL merges them, DISTINCT pairs filtered again) and emitted; a
 * partition that does not fit is split one level down and merged part by part.
 *
 * <pre>
 *   spilled groups ─► partition p of level L: states file, then pairs files ─► groups ─► fits?
 *     yes ─► emit final values (coalesced to full batches) ─► clear ─► next partition
 *     no (the budget refuses) ─► spill groups to level L + 1 partitions of p, clear, read on
 *        ─► at the end of p: merge each of p's level L + 1 partitions the same way
 * </pre>
 *
 * <p>Every file is deleted as soon as it has been read; what is left on failure is deleted when the
 * operator closes its {@link SpillingGroups} (the level-0 one) or here (deeper levels).
 */
final class SpillMerge {
  private static final Logger LOG = LoggerFactory.getLogger(SpillMerge.class);

  private final OperatorContext context;
  private final GroupStates groups;
  private final BatchSink out;
  private final String owner;
  private final GroupFeeder feeder;
  private final Feed[] feeds; // per stream: [0] states, [1 + c] pairs of DISTINCT call c

  private SpillMerge(OperatorContext context, GroupStates groups, BatchSink out, String owner) {
    this.context = context;
    this.groups = groups;
    this.out = out;
    this.owner = owner;
    this.feeder = new GroupFeeder(context, groups);
    int keys = groups.layout().keyFields.size();
    List<AggregateCall> calls = groups.calls();
    this.feeds = new Feed[1 + calls.size()];
    feeds[0] = Feed.spilledStates(keys, calls);
    for (int c = 0; c < calls.size(); c++) {
      if (groups.distinctArgument(c) != null) {
        feeds[1 + c] = Feed.spilledPairs(keys, calls.size(), c);
      }
    }
  }

  /** Merges the groups in memory and every partition of {@code spill} into {@code sink}. */
  static void finish(
      OperatorContext context,
      SpillingGroups spill,
      GroupStates groups,
      BatchSink sink,
      String owner) {
    try (CoalescingSink out =
        new CoalescingSink(
            groups.layout().output, context.allocator(), context.targetBatchRows(), sink)) {
      new SpillMerge(context, groups, out, owner).drain(spill);
      out.flush();
    }
  }

  /** Spills what is left in memory to {@code spill}, then merges each of its partitions. */
  private void drain(SpillingGroups spill) {
    if (groups.canShrink()) {
      spill.spill(groups);
    }
    groups.clear();
    spill.finishWriting();
    if (spill.level() == 0) {
      LOG.info("{} merges {} spilled groups partition by partition", owner, spill.spilledGroups());
    } else {
      LOG.debug("{} splits a partition: {} groups", owner, spill.spilledGroups());
    }
    for (SpillingGroups.Partition next = spill.next(); next != null; next = spill.next()) {
      try (SpillingGroups.Partition partition = next) {
        merge(partition, spill);
      }
    }
  }

  /**
   * Merges the states of {@code runs} (partial states of any keys, in any order, spilled earlier
   * without partitions) into the groups already in {@code groups} and emits their final values (or
   * states, for a PARTIAL layout) to {@code out}; the groups are left empty and every run is closed
   * once read. While everything fits this is one pass over the runs; when the budget refuses, the
   * groups go to level-0 hash partitions and are merged as {@link #finish} merges them. The window
   * aggregate merges a window's spilled runs this way ({@link OpenWindows}).
   *
   * @param others makes room elsewhere (the operator's other state) when the groups being merged
   *     are empty and still refused
   */
  static void mergeRuns(
      OperatorContext context,
      List<SpillFile> runs,
      GroupStates groups,
      BatchSink out,
      GroupFeeder.Relief others,
      String owner) {
    SpillMerge merge = new SpillMerge(context, groups, out, owner);
    SpillingGroups[] split = new SpillingGroups[1]; // made when the runs do not fit
    try {
      GroupFeeder.Relief own =
          merge.splitInto(split, () -> new SpillingGroups(context, groups, 0, owner));
      GroupFeeder.Relief relief =
          new GroupFeeder.Relief() {
            @Override
            public boolean relieve() {
              return groups.canShrink() ? own.relieve() : others.relieve();
            }

            @Override
            public boolean mayFree(GroupStates fed) {
              return true;
            }
          };
      for (SpillFile run : runs) {
        merge.read(run, merge.feeds[0], relief);
      }
      merge.emitOrDrain(split[0]);
    } finally {
      if (split[0] != null) {
        split[0].close();
      }
    }
  }

  /** Spills the groups to {@code split[0]} (made by {@code make} at the first refusal). */
  private GroupFeeder.Relief splitInto(SpillingGroups[] split, Supplier<SpillingGroups> make) {
    return () -> {
      if (split[0] == null) {
        split[0] = make.get();
      }
      split[0].spill(groups);
      groups.clear();
      return true;
    };
  }

  private void merge(SpillingGroups.Partition partition, SpillingGroups level) {
    SpillingGroups[] split = new SpillingGroups[1]; // made when the partition does not fit
    try {
      GroupFeeder.Relief relief = splitInto(split, level::child);
      SpillFile[] files = partition.files();
      for (int stream = 0; stream < files.length; stream++) {
        if (files[stream] != null) {
          read(files[stream], feeds[stream], relief);
        }
      }
      emitOrDrain(split[0]);
    } finally {
      if (split[0] != null) {
        split[0].close();
      }
    }
  }

  /** Folds every batch of {@code file} into the groups, then deletes the file. */
  private void read(SpillFile file, Feed feed, GroupFeeder.Relief relief) {
    try (SpillReader reader = file.open(context.allocator())) {
      for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
        try (VectorSchemaRoot batch = next) {
          feeder.add(batch, feed, relief);
        }
      }
    }
    file.close(); // read: its disk space is free now
  }

  /**
   * Emits the groups if nothing was split off, else merges {@code split} partition by partition.
   */
  private void emitOrDrain(SpillingGroups split) {
    if (split == null) {
      groups.emit(out);
      groups.clear();
    } else {
      drain(split);
    }
  }
}
