package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;

/**
 * What one stage task did, as Flink accumulators so that they reach the client with the job's
 * result (EXPLAIN ANALYZE): rows and batches in (from upstream stages; a scan stage's rows come
 * from its source and count as output only), rows and batches out, the bytes of Arrow buffers it
 * sent downstream (what the exchange ships, before optional compression), and the time the task
 * spent in its pipeline (busy time, not waiting for input), the bytes it spilled to disk, and its
 * memory budget (explicit, or its share of the slot's managed memory; {@code Long.MAX_VALUE} when
 * unlimited).
 *
 * <p>Accumulators are named {@code quiver.s<stage>.t<task>.<counter>}, so that Flink, which merges
 * accumulators of equal names across tasks, keeps every task's apart.
 */
public final class TaskStats {
  private static final String PREFIX = "quiver.s";
  private static final Pattern NAME = Pattern.compile("quiver\\.s(\\d+)\\.t(\\d+)\\.(\\w+)");

  final LongCounter rowsIn = new LongCounter();
  final LongCounter batchesIn = new LongCounter();
  final LongCounter rowsOut = new LongCounter();
  final LongCounter batchesOut = new LongCounter();
  final LongCounter bytesOut = new LongCounter();
  final LongCounter busyNanos = new LongCounter();
  final LongCounter spilledBytes = new LongCounter();
  final LongCounter memoryBudget = new LongCounter();

  /** One task's figures as read back on the client. */
  public record Task(
      int stage,
      int task,
      long rowsIn,
      long batchesIn,
      long rowsOut,
      long batchesOut,
      long bytesOut,
      long busyNanos,
      long spilledBytes,
      long memoryBudget) {}

  /** Counters of a task; {@link #register} makes them accumulators of the running task. */
  TaskStats() {}

  void register(RuntimeContext context, int stage, int task) {
    requireNonNull(context, "context is null");
    if (stage < 0) {
      return; // a task outside a stage graph (tests): nothing to report
    }
    String prefix = PREFIX + stage + ".t" + task + ".";
    context.addAccumulator(prefix + "rowsIn", rowsIn);
    context.addAccumulator(prefix + "batchesIn", batchesIn);
    context.addAccumulator(prefix + "rowsOut", rowsOut);
    context.addAccumulator(prefix + "batchesOut", batchesOut);
    context.addAccumulator(prefix + "bytesOut", bytesOut);
    context.addAccumulator(prefix + "busyNanos", busyNanos);
    context.addAccumulator(prefix + "spilledBytes", spilledBytes);
    context.addAccumulator(prefix + "memoryBudget", memoryBudget);
  }

  /**
   * The tasks of a finished job, by stage id then task index, from its accumulator results (other
   * accumulators are ignored).
   */
  public static Map<Integer, List<Task>> fromAccumulators(Map<String, Object> results) {
    Map<Integer, Map<Integer, Map<String, Long>>> byStage = new TreeMap<>();
    for (Map.Entry<String, Object> entry : results.entrySet()) {
      Matcher m = NAME.matcher(entry.getKey());
      if (m.matches() && entry.getValue() instanceof Number value) {
        byStage
            .computeIfAbsent(Integer.parseInt(m.group(1)), s -> new TreeMap<>())
            .computeIfAbsent(Integer.parseInt(m.group(2)), t -> new TreeMap<>())
            .put(m.group(3), value.longValue());
      }
    }
    Map<Integer, List<Task>> stages = new TreeMap<>();
    byStage.forEach(
        (stage, tasks) -> {
          List<Task> list = new ArrayList<>();
          tasks.forEach(
              (task, c) ->
                  list.add(
                      new Task(
                          stage,
                          task,
                          c.getOrDefault("rowsIn", 0L),
                          c.getOrDefault("batchesIn", 0L),
                          c.getOrDefault("rowsOut", 0L),
                          c.getOrDefault("batchesOut", 0L),
                          c.getOrDefault("bytesOut", 0L),
                          c.getOrDefault("busyNanos", 0L),
                          c.getOrDefault("spilledBytes", 0L),
                          c.getOrDefault("memoryBudget", Long.MAX_VALUE))));
          stages.put(stage, List.copyOf(list));
        });
    return stages;
  }
}
