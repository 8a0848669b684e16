package dev.quiver.plan.node;

import static dev.quiver.plan.node.PlanChecks.check;
import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@link TableSource} with {@code tasks} parallel tasks. A scan as built has no split
 * assignment; the stage planner gives it one ({@link #withAssignment}), so that each task reads a
 * list of units fixed at planning time and never picks its share by task index at run time.
 *
 * <p>A {@linkplain #replicated(TableSource, int) replicated} scan is read whole by every task: it
 * is the build side of a broadcast join that each task of the join's stage reads itself, instead of
 * a stage of its own whose output is broadcast (see {@code ReplicateSmallBuilds}).
 */
public final class Scan extends LeafNode {
  private static final long serialVersionUID = 1L;

  private final TableSource source;
  private final int tasks;
  private final boolean replicated;
  private final List<List<SplitUnit>> assignment; // null until planned

  public Scan(TableSource source, int tasks) {
    this(source, tasks, false, null);
  }

  /** A scan of {@code source} that each of its {@code tasks} tasks reads whole. */
  public static Scan replicated(TableSource source, int tasks) {
    return new Scan(source, tasks, true, null);
  }

  private Scan(
      TableSource source, int tasks, boolean replicated, List<List<SplitUnit>> assignment) {
    super(
        requireNonNull(source, "source is null").schema(),
        Partitioning.unknown(checkTasks(source, tasks)),
        List.of());
    this.source = source;
    this.tasks = tasks;
    this.replicated = replicated;
    this.assignment = assignment;
  }

  private static int checkTasks(TableSource source, int tasks) {
    check(tasks >= 1, "Scan[" + source.name() + "]", "needs at least one task, got " + tasks);
    return tasks;
  }

  public TableSource source() {
    return source;
  }

  public int tasks() {
    return tasks;
  }

  /** Whether every task reads every unit (the build side of a join, read in its stage). */
  public boolean isReplicated() {
    return replicated;
  }

  /** Whether {@code node} is filters and projections over a replicated scan. */
  public static boolean replicatedPipeline(PlanNode node) {
    Scan scan = underPipeline(node);
    return scan != null && scan.replicated;
  }

  /** The scan under {@code node} when it is filters and projections over one, else null. */
  public static Scan underPipeline(PlanNode node) {
    PlanNode bottom = node;
    while (bottom instanceof Filter || bottom instanceof Project) {
      bottom = bottom.child(0);
    }
    return bottom instanceof Scan scan ? scan : null;
  }

  /** {@code pipeline} (filters and projections over a scan) over {@code scan} instead. */
  public static PlanNode replaceUnderPipeline(PlanNode pipeline, Scan scan) {
    if (pipeline instanceof Scan) {
      return scan;
    }
    return pipeline.withChildren(List.of(replaceUnderPipeline(pipeline.child(0), scan)));
  }

  /** The units of each task, once planned. */
  public Optional<List<List<SplitUnit>>> assignment() {
    return Optional.ofNullable(assignment);
  }

  /**
   * This scan with each task's units. Every unit of the source must appear exactly once, in exactly
   * {@link #tasks()} lists; in every list when the scan is replicated.
   */
  public Scan withAssignment(List<List<SplitUnit>> perTask) {
    requireNonNull(perTask, "perTask is null");
    if (perTask.size() != tasks) {
      throw new IllegalArgumentException(
          this + ": " + perTask.size() + " task assignments for " + tasks + " tasks");
    }
    Map<SplitUnit, Integer> remaining = new HashMap<>();
    for (SplitUnit unit : source.units()) {
      remaining.merge(unit, replicated ? tasks : 1, Integer::sum);
    }
    List<List<SplitUnit>> copy = new ArrayList<>();
    for (List<SplitUnit> units : perTask) {
      if (replicated && units.size() != source.units().size()) {
        throw new IllegalArgumentException(this + ": a task of a replicated scan reads every unit");
      }
      for (SplitUnit unit : units) {
        if (remaining.merge(unit, -1, Integer::sum) < 0) {
          throw new IllegalArgumentException(this + ": unit assigned twice or unknown: " + unit);
        }
      }
      copy.add(List.copyOf(units));
    }
    if (remaining.values().stream().anyMatch(count -> count != 0)) {
      throw new IllegalArgumentException(this + ": some units are not assigned to any task");
    }
    return new Scan(source, tasks, replicated, List.copyOf(copy));
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(source, tasks, replicated, assignment);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitScan(this);
  }

  /**
   * {@code Scan[orders [o_id, o_date], units=13, tasks=3]}, with a pushed filter {@code Scan[orders
   * [o_id, o_date], filter=(o_date >= DATE '1995-01-01'), units=4, tasks=3]}; once planned, the
   * units and bytes of each task: {@code Scan[orders, units=13, tasks=[5 units 5000 B, 4 units 4000
   * B, 4 units 4000 B]]}.
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("Scan[").append(source.name()).append(" [");
    for (int c = 0; c < source.schema().size(); c++) {
      text.append(c == 0 ? "" : ", ").append(source.schema().column(c).name());
    }
    text.append(']');
    source.filter().ifPresent(filter -> text.append(", filter=(").append(filter).append(')'));
    if (source.isUnbounded()) {
      text.append(", unbounded");
      source.eventTime().ifPresent(time -> text.append(", ").append(time));
    }
    text.append(", units=").append(source.units().size());
    text.append(replicated ? ", replicated" : "").append(", tasks=");
    if (assignment == null) {
      return text.append(tasks).append(']').toString();
    }
    text.append('[');
    for (int t = 0; t < assignment.size(); t++) {
      long bytes = 0;
      for (SplitUnit unit : assignment.get(t)) {
        bytes += unit.bytes();
      }
      int units = assignment.get(t).size();
      text.append(t == 0 ? "" : ", ").append(units).append(units == 1 ? " unit " : " units ");
      text.append(bytes).append(" B");
    }
    return text.append("]]").toString();
  }
}
