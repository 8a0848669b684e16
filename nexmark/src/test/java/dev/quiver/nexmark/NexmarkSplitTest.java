package dev.quiver.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

/** Splits of N events among p tasks: disjoint, complete, sized as they say. */
class NexmarkSplitTest {

  @Test
  void tasksTogetherProduceEveryEventExactlyOnce() {
    for (long events : new long[] {0, 1, 49, 999, 1000, 1001, 12_345, 50_000}) {
      for (int tasks = 1; tasks <= 5; tasks++) {
        for (int block : new int[] {1, 50, 1000}) {
          BitSet seen = new BitSet();
          long total = 0;
          for (int task = 0; task < tasks; task++) {
            EventSplit split = new EventSplit(events, task, tasks, block);
            long count = 0;
            for (long n = split.first(); n != EventSplit.END; n = split.nextFrom(n + 1)) {
              assertThat(seen.get((int) n)).as("event %d twice", n).isFalse();
              assertThat((n / block) % tasks).isEqualTo(task);
              seen.set((int) n);
              count++;
            }
            assertThat(split.size()).as("size of %s", split).isEqualTo(count);
            total += count;
          }
          assertThat(total).isEqualTo(events);
          assertThat(seen.cardinality()).isEqualTo((int) events);
        }
      }
    }
  }

  @Test
  void tasksStayCloseInEventTime() {
    EventSplit first = EventSplit.of(10_000, 0, 2);
    EventSplit second = EventSplit.of(10_000, 1, 2);
    assertThat(first.first()).isZero();
    assertThat(second.first()).isEqualTo(1000);
    assertThat(first.nextFrom(1000)).isEqualTo(2000);
    assertThat(second.nextFrom(1999)).isEqualTo(1999);
    assertThat(second.nextFrom(9000)).isEqualTo(9000);
    assertThat(second.nextFrom(10_000)).isEqualTo(EventSplit.END);
    assertThat(first.nextFrom(9000)).isEqualTo(EventSplit.END);
  }
}
