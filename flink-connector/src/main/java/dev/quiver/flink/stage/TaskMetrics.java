package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.operators.spill.SpillSpace;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * A stage task's spill volume and memory budget as Flink metrics of its operator, so that they show
 * in Flink's task metrics (web UI, REST, metric reporters) while the task runs, not only in the
 * accumulators the client reads after the job ({@link TaskStats}).
 *
 * <p>Gauges rather than counters: the spill space keeps the totals (thread-safe, readable by the
 * reporter's thread) and a gauge reads them when asked, so nothing on the spill path changes.
 */
final class TaskMetrics {
  /** Bytes written to spill files so far (as stored, after compression). */
  static final String SPILLED_BYTES = "quiverSpilledBytes";

  /** Spill files created so far. */
  static final String SPILL_FILES = "quiverSpillFiles";

  /** Rows written to spill files so far. */
  static final String SPILLED_ROWS = "quiverSpilledRows";

  /** The task's memory budget in bytes ({@code Long.MAX_VALUE}: unlimited). */
  static final String MEMORY_BUDGET = "quiverMemoryBudget";

  /** Rows dropped so far because they arrived after their event-time window was emitted. */
  static final String LATE_ROWS = "quiverLateRows";

  private TaskMetrics() {}

  static void register(
      MetricGroup group, SpillSpace spill, long memoryBudget, TaskPipeline pipeline) {
    requireNonNull(group, "group is null");
    requireNonNull(spill, "spill is null");
    group.gauge(SPILLED_BYTES, (Gauge<Long>) spill::spilledBytes);
    group.gauge(SPILL_FILES, (Gauge<Long>) spill::spilledFiles);
    group.gauge(SPILLED_ROWS, (Gauge<Long>) spill::spilledRows);
    group.gauge(MEMORY_BUDGET, (Gauge<Long>) () -> memoryBudget);
    group.gauge(LATE_ROWS, (Gauge<Long>) pipeline::lateRows);
  }
}
