package dev.quiver.plan.distribute;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.SplitUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Spreads a table's split units over tasks at planning time, so that every task gets a fixed,
 * balanced list and no task picks its share by index at run time.
 *
 * <p>Units are flattened first (however the connector grouped them): grouping per file or directory
 * before splitting gives lopsided tasks (3 tasks over groups of 1 and 12 files would get 1, 4, 4, 4
 * in four groups); flat, the same 13 files of equal size get 5, 4, 4.
 *
 * <p>Greedy largest-first: units in descending size, each onto the task with the fewest bytes so
 * far (ties: fewer units, then the lower task index). That bounds the imbalance: the most loaded
 * task got its last unit when it was the least loaded, so {@code max - min <= the largest unit}.
 * For units of equal size (or unknown size, 0 bytes) the unit counts differ by at most one.
 * Deterministic: equal sizes keep their input order, and each task's units come back in input order
 * (neighbouring units of a file stay together).
 */
public final class SplitAssigner {
  private SplitAssigner() {}

  /**
   * The units of each of {@code tasks} tasks: every unit exactly once; tasks may be empty only when
   * there are fewer units than tasks.
   */
  public static List<List<SplitUnit>> assign(List<SplitUnit> units, int tasks) {
    requireNonNull(units, "units is null");
    if (tasks < 1) {
      throw new IllegalArgumentException("tasks must be at least 1: " + tasks);
    }
    Integer[] order = new Integer[units.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      requireNonNull(units.get(i), "unit is null");
    }
    // Largest first; equal sizes in input order (the sort is stable).
    Arrays.sort(order, Comparator.comparingLong(i -> -units.get(i).bytes()));

    long[] bytes = new long[tasks];
    int[] counts = new int[tasks];
    PriorityQueue<Integer> leastLoaded =
        new PriorityQueue<>(
            tasks,
            Comparator.<Integer>comparingLong(t -> bytes[t])
                .thenComparingInt(t -> counts[t])
                .thenComparingInt(t -> t));
    for (int t = 0; t < tasks; t++) {
      leastLoaded.add(t);
    }
    int[] taskOf = new int[units.size()];
    for (int i : order) {
      int task = leastLoaded.poll();
      taskOf[i] = task;
      bytes[task] += units.get(i).bytes();
      counts[task]++;
      leastLoaded.add(task);
    }

    List<List<SplitUnit>> perTask = new ArrayList<>(tasks);
    for (int t = 0; t < tasks; t++) {
      perTask.add(new ArrayList<>(counts[t]));
    }
    for (int i = 0; i < units.size(); i++) {
      perTask.get(taskOf[i]).add(units.get(i));
    }
    List<List<SplitUnit>> result = new ArrayList<>(tasks);
    for (List<SplitUnit> task : perTask) {
      result.add(List.copyOf(task));
    }
    return List.copyOf(result);
  }
}
