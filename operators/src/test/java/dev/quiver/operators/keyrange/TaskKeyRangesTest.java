package dev.quiver.operators.keyrange;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The board of one task thread: open, publish, intersect, close. */
class TaskKeyRangesTest {
  @Test
  void withoutAnOpenBoardNothingIsKept() {
    TaskKeyRanges.publish("t", 0, new KeyRange(1, 2));
    assertThat(TaskKeyRanges.ranges("t")).isEmpty();
  }

  @Test
  void rangesOfOneColumnIntersectAndTheLastScopeClears() {
    try (TaskKeyRanges.Scope task = TaskKeyRanges.open()) {
      try (TaskKeyRanges.Scope chained = TaskKeyRanges.open()) {
        TaskKeyRanges.publish("t", 2, new KeyRange(1, 100));
        TaskKeyRanges.publish("t", 2, new KeyRange(50, 200));
        TaskKeyRanges.publish("t", 0, new KeyRange(-5, 5));
        TaskKeyRanges.publish("u", 0, KeyRange.EMPTY);
      }
      assertThat(TaskKeyRanges.ranges("t"))
          .isEqualTo(Map.of(2, new KeyRange(50, 100), 0, new KeyRange(-5, 5)));
      assertThat(TaskKeyRanges.ranges("u")).isEqualTo(Map.of(0, KeyRange.EMPTY));
      assertThat(TaskKeyRanges.ranges("v")).isEmpty();
    }
    assertThat(TaskKeyRanges.ranges("t")).isEmpty();
    try (TaskKeyRanges.Scope next = TaskKeyRanges.open()) {
      assertThat(TaskKeyRanges.ranges("t")).as("a new task starts with none").isEmpty();
    }
  }

  @Test
  void anotherThreadSeesNothing() throws InterruptedException {
    try (TaskKeyRanges.Scope task = TaskKeyRanges.open()) {
      TaskKeyRanges.publish("t", 0, new KeyRange(1, 2));
      Map<?, ?>[] seen = new Map<?, ?>[1];
      Thread other = new Thread(() -> seen[0] = TaskKeyRanges.ranges("t"));
      other.start();
      other.join();
      assertThat(seen[0]).isEmpty();
    }
  }
}
