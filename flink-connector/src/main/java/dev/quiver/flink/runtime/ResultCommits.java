package dev.quiver.flink.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides which result frames the caller sees, so that every row reaches it exactly once even when
 * Flink restarts tasks.
 *
 * <p>Why this is needed: a batch job's result leaves through Flink's collect sink, which hands
 * records to the client as they arrive. When a task fails and the job restarts (a restart strategy
 * is configured), the restarted tasks send their output again: the result task of the failed region
 * again from its start, in a new attempt, possibly in another order (a hash aggregate's output
 * order depends on its input's arrival order); a restarted collect sink again from the start of
 * what it read. Flink's own answer without checkpoints is to fail the reader ("Job restarted").
 *
 * <p>The protocol, per result task (the task that encodes the result, {@link EncodeOperator}):
 *
 * <pre>
 *   frame (task t, attempt a, seq s)
 *     t already committed ─────────────► drop (its whole output was handed out)
 *     a &lt; attempt of t  ───────────────► drop (a failed attempt's late frame)
 *     a &gt; attempt of t  ───────────────► forget t's pending frames, attempt of t := a
 *     DATA, s = pending(t)  ────────────► pending(t) += frame
 *     DATA, s &lt; pending(t)  ────────────► drop (a restarted sink replays the same attempt)
 *     END,  s = pending(t)  ────────────► commit: pending(t) becomes visible, in order
 * </pre>
 *
 * A task's output becomes visible only once its attempt has sent all of it, and then never again,
 * so no row is duplicated or lost whichever tasks restart. The price is that a result task's output
 * waits in client memory until that task ends, so this mode is used only when the job may restart
 * ({@link BatchResults}); without restarts ({@code exact = false}) every DATA frame is visible at
 * once and END frames are dropped, and a restart fails the reader as before.
 *
 * <p>The exactness rests on what restarts recompute: each result task's output, taken whole, is a
 * correct part of the answer in any attempt (scans are split per task at planning time and
 * exchanges route rows by key), so whole outputs of different attempts fit together.
 */
final class ResultCommits {
  private final boolean exact;
  private final ArrayDeque<ResultFrame> visible = new ArrayDeque<>();
  private final Map<Integer, Pending> pending = new HashMap<>();
  private final Map<Integer, Integer> committed = new HashMap<>(); // task -> attempt

  ResultCommits(boolean exact) {
    this.exact = exact;
  }

  /** What one result task has sent so far in its latest attempt. */
  private static final class Pending {
    int attempt;
    final List<ResultFrame> frames = new ArrayList<>();

    Pending(int attempt) {
      this.attempt = attempt;
    }
  }

  /** Takes the next frame from the job. */
  void accept(ResultFrame frame) {
    if (!exact) {
      if (!frame.end()) {
        visible.add(frame);
      }
      return;
    }
    if (committed.containsKey(frame.task())) {
      return;
    }
    Pending task = pending.computeIfAbsent(frame.task(), t -> new Pending(frame.attempt()));
    if (frame.attempt() < task.attempt) {
      return;
    }
    if (frame.attempt() > task.attempt) {
      task.attempt = frame.attempt();
      task.frames.clear();
    }
    long next = task.frames.size();
    if (frame.seq() < next && !frame.end()) {
      return; // replayed by a restarted sink: the same attempt's same frame
    }
    if (frame.seq() != next) {
      throw new IllegalStateException(
          "result task "
              + frame.task()
              + " attempt "
              + frame.attempt()
              + ": frame "
              + frame.seq()
              + " arrived after "
              + next
              + " frames: results were lost");
    }
    if (frame.end()) {
      visible.addAll(task.frames);
      pending.remove(frame.task());
      committed.put(frame.task(), frame.attempt());
    } else {
      task.frames.add(frame);
    }
  }

  /** The next visible DATA frame, or null when none is visible yet. */
  ResultFrame poll() {
    return visible.poll();
  }

  /**
   * Checks, once the job has sent everything, that every result task that sent data also ended: a
   * finished job always ends its tasks, so anything else is a bug that would lose rows.
   */
  void checkComplete() {
    if (exact && !pending.isEmpty()) {
      throw new IllegalStateException(
          "the job ended but result tasks " + pending.keySet() + " sent no end of their output");
    }
  }
}
