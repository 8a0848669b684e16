package dev.quiver.nexmark;

import java.io.Serializable;

/**
 * The event numbers task {@code task} of {@code tasks} generates out of events {@code 0 ..
 * events-1}: blocks of {@code blockEvents} consecutive numbers dealt round robin, block {@code b}
 * to task {@code b % tasks}. The tasks' splits are disjoint and together hold every event number
 * once.
 *
 * <pre>
 *   events  0 ........ B-1 | B ...... 2B-1 | 2B ..... 3B-1 | 3B ... N-1
 *   task        0                1                0              1        (tasks = 2)
 * </pre>
 *
 * <p>Why blocks dealt round robin and not one contiguous range per task: event time grows with the
 * event number, and a task's watermark follows its own events. With contiguous ranges task 1 would
 * start at the event time where task 0 ends, every window would wait for task 0 to get there, and
 * window state would hold half the stream. Dealt in blocks, the tasks stay within {@code tasks *
 * blockEvents} events of each other in event time. A block of a multiple of the epoch (50 events)
 * gives every task the same mix of persons, auctions and bids.
 *
 * @param events the total number of events of all tasks
 * @param task this task's index, {@code 0 <= task < tasks}
 * @param tasks the number of tasks the events are split among
 * @param blockEvents the events per block
 */
public record EventSplit(long events, int task, int tasks, int blockEvents)
    implements Serializable {

  /** Events per block unless chosen: 20 epochs of the default proportions. */
  public static final int DEFAULT_BLOCK_EVENTS = 1000;

  /** Returned by {@link #nextFrom} when no event of the split is left. */
  public static final long END = -1;

  public EventSplit {
    if (events < 0) {
      throw new IllegalArgumentException("events must be >= 0: " + events);
    }
    if (tasks <= 0 || task < 0 || task >= tasks) {
      throw new IllegalArgumentException("task " + task + " of " + tasks);
    }
    if (blockEvents <= 0) {
      throw new IllegalArgumentException("blockEvents must be positive: " + blockEvents);
    }
  }

  /** Task {@code task}'s split of {@code events} among {@code tasks}, default blocks. */
  public static EventSplit of(long events, int task, int tasks) {
    return new EventSplit(events, task, tasks, DEFAULT_BLOCK_EVENTS);
  }

  /** The first event number of this split, or {@link #END} if it has none. */
  public long first() {
    return nextFrom(0);
  }

  /** The smallest event number of this split that is {@code >= from}, or {@link #END}. */
  public long nextFrom(long from) {
    long block = from / blockEvents;
    long owner = block % tasks;
    long n = from;
    if (owner != task) {
      block += (task - owner + tasks) % tasks;
      n = block * blockEvents;
    }
    return n < events ? n : END;
  }

  /** How many events this split holds. */
  public long size() {
    long blocks = events / blockEvents;
    long full = blocks / tasks + (task < blocks % tasks ? 1 : 0);
    long tail = events % blockEvents;
    return full * blockEvents + (blocks % tasks == task ? tail : 0);
  }
}
