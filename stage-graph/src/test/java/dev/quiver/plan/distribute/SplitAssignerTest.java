package dev.quiver.plan.distribute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.plan.node.PlanFixtures;
import dev.quiver.plan.node.SplitUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SplitAssignerTest {
  @Test
  void flattensLopsidedGroupsIntoFiveFourFour() {
    // One file in a/, twelve in b/, as in the datafusion-distributed discussion: 5, 4, 4.
    List<List<SplitUnit>> tasks = SplitAssigner.assign(PlanFixtures.orders().units(), 3);
    assertThat(tasks).extracting(List::size).containsExactly(5, 4, 4);
  }

  @Test
  void balancesBytesLargestFirstAndKeepsInputOrderWithinATask() {
    List<SplitUnit> units =
        List.of(unit("a", 100), unit("b", 700), unit("c", 300), unit("d", 400), unit("e", 200));
    List<List<SplitUnit>> tasks = SplitAssigner.assign(units, 2);
    // b700 -> t0, d400 -> t1, c300 -> t1 (700); a tie at 700 goes to the task with fewer
    // units: e200 -> t0 (900); a100 -> t1 (800). Each task lists its units in input order.
    assertThat(names(tasks.get(0))).containsExactly("b", "e");
    assertThat(names(tasks.get(1))).containsExactly("a", "c", "d");
  }

  @Test
  void unknownSizesSpreadByCount() {
    List<SplitUnit> units = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      units.add(unit("f" + i, 0));
    }
    assertThat(SplitAssigner.assign(units, 4)).extracting(List::size).containsExactly(3, 3, 2, 2);
  }

  @Test
  void moreTasksThanUnitsLeavesTasksEmpty() {
    List<List<SplitUnit>> tasks = SplitAssigner.assign(List.of(unit("a", 5), unit("b", 9)), 4);
    assertThat(tasks).extracting(List::size).containsExactly(1, 1, 0, 0);
    assertThat(SplitAssigner.assign(List.of(), 2)).containsExactly(List.of(), List.of());
  }

  @Test
  void rejectsZeroTasks() {
    assertThatThrownBy(() -> SplitAssigner.assign(List.of(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Property: every unit once, deterministic, max - min load <= the largest unit. */
  @Test
  void randomUnitsAreBalancedWithinTheLargestUnit() {
    Random random = new Random(42);
    for (int round = 0; round < 500; round++) {
      int count = random.nextInt(60);
      List<SplitUnit> units = new ArrayList<>();
      long largest = 0;
      for (int i = 0; i < count; i++) {
        long bytes = random.nextInt(4) == 0 ? random.nextInt(1_000_000) : random.nextInt(1000);
        largest = Math.max(largest, bytes);
        units.add(SplitUnit.rowGroup("file-" + i / 4, i % 4, bytes, 10));
      }
      int tasks = 1 + random.nextInt(16);
      List<List<SplitUnit>> assignment = SplitAssigner.assign(units, tasks);

      assertThat(assignment).hasSize(tasks);
      assertThat(assignment.stream().flatMap(List::stream).collect(Collectors.toList()))
          .containsExactlyInAnyOrderElementsOf(units);
      long max = assignment.stream().mapToLong(SplitAssignerTest::bytes).max().orElseThrow();
      long min = assignment.stream().mapToLong(SplitAssignerTest::bytes).min().orElseThrow();
      assertThat(max - min)
          .as("round %d: %d units over %d tasks", round, count, tasks)
          .isLessThanOrEqualTo(largest);
      assertThat(SplitAssigner.assign(units, tasks)).isEqualTo(assignment);
    }
  }

  /** Property: units of equal size give counts that differ by at most one. */
  @Test
  void equalUnitsDifferByAtMostOneUnit() {
    for (int count = 0; count < 40; count++) {
      List<SplitUnit> units = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        units.add(unit("f" + i, 1000));
      }
      for (int tasks = 1; tasks <= 12; tasks++) {
        List<Integer> sizes =
            SplitAssigner.assign(units, tasks).stream()
                .map(List::size)
                .collect(Collectors.toList());
        int spread =
            sizes.stream().mapToInt(i -> i).max().orElseThrow()
                - sizes.stream().mapToInt(i -> i).min().orElseThrow();
        assertThat(spread)
            .as("%d units over %d tasks: %s", count, tasks, sizes)
            .isLessThanOrEqualTo(1);
      }
    }
  }

  private static SplitUnit unit(String path, long bytes) {
    return SplitUnit.file(path, bytes, SplitUnit.UNKNOWN_ROWS);
  }

  private static long bytes(List<SplitUnit> units) {
    return units.stream().mapToLong(SplitUnit::bytes).sum();
  }

  private static List<String> names(List<SplitUnit> units) {
    return units.stream().map(SplitUnit::path).collect(Collectors.toList());
  }
}
