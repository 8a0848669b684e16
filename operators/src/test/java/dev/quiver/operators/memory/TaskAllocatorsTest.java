package dev.quiver.operators.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The task's allocator shared by its holders: the last close fails on a leak after a normal end,
 * and only logs it when any holder ended abnormally, whichever holder closes last (a source that
 * read all of its input may close after a cancelled writer chained behind it: throwing then, while
 * Flink cleans up the cancelled task, is fatal to the TaskManager; SinkFaultsTest hung on it).
 */
class TaskAllocatorsTest {
  @Test
  void aLeakAfterANormalEndFailsTheLastClose() {
    TaskAllocators.Binding source = TaskAllocators.acquire("task");
    TaskAllocators.Binding writer = TaskAllocators.acquire("task");
    writer.allocator().buffer(64); // leaked: a closed allocator cannot take it back
    writer.close();
    assertThatThrownBy(source::close).isInstanceOf(IllegalStateException.class);
    assertThat(TaskAllocators.isBound()).isFalse();
  }

  @Test
  void aLeakAfterAnAbnormalEndIsOnlyLoggedWhoeverClosesLast() {
    for (boolean abnormalFirst : new boolean[] {true, false}) {
      TaskAllocators.Binding source = TaskAllocators.acquire("task");
      TaskAllocators.Binding writer = TaskAllocators.acquire("task");
      writer.allocator().buffer(64); // leaked: a closed allocator cannot take it back
      if (abnormalFirst) {
        writer.closeAbnormally();
        source.close(); // finished its input: a normal close, yet the task was cancelled
      } else {
        source.close();
        writer.closeAbnormally();
      }
      assertThat(TaskAllocators.isBound()).isFalse();
    }
  }
}
