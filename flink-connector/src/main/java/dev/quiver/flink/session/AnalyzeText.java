package dev.quiver.flink.session;

import dev.quiver.flink.stage.TaskStats;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * EXPLAIN ANALYZE text: the stage graph with, under each stage's header, one line per task of what
 * it did, and the query's rows and wall time on top.
 *
 * <pre>
 * Stage 2  tasks=2  output=hash([#0], 2)  inputs=[0 SHUFFLE, 1 SHUFFLE]
 *   | task 0: in 31,210 rows / 9 batches, out 1,502 rows / 1 batch (48.1 KB), busy 41 ms
 *   | task 1: ...
 * </pre>
 *
 * A scan stage has no input rows (its rows come from its source and count as output). A task that
 * spilled says how much, and its memory budget.
 */
public final class AnalyzeText {
  private AnalyzeText() {}

  /** The EXPLAIN ANALYZE text of {@code graph} with its tasks' {@code stats}. */
  public static String render(
      StageGraph graph, Map<Integer, List<TaskStats.Task>> stats, long rows, long wallNanos) {
    String head = String.format(Locale.ROOT, "-- %,d rows in %,.3f s%n", rows, wallNanos / 1e9);
    return head + graph.explain(stage -> notes(stage, stats.getOrDefault(stage.id(), List.of())));
  }

  private static List<String> notes(Stage stage, List<TaskStats.Task> tasks) {
    List<String> lines = new ArrayList<>();
    if (tasks.isEmpty()) {
      lines.add("no statistics (the stage reported none)");
      return lines;
    }
    for (TaskStats.Task t : tasks) {
      lines.add(
          String.format(
              Locale.ROOT,
              "task %d: in %,d rows / %,d %s, out %,d rows / %,d %s (%s), busy %,d ms%s",
              t.task(),
              t.rowsIn(),
              t.batchesIn(),
              t.batchesIn() == 1 ? "batch" : "batches",
              t.rowsOut(),
              t.batchesOut(),
              t.batchesOut() == 1 ? "batch" : "batches",
              bytes(t.bytesOut()),
              t.busyNanos() / 1_000_000,
              t.spilledBytes() == 0
                  ? ""
                  : ", spilled " + bytes(t.spilledBytes()) + " (budget " + budget(t) + ")"));
    }
    return lines;
  }

  private static String budget(TaskStats.Task task) {
    return task.memoryBudget() == Long.MAX_VALUE ? "none" : bytes(task.memoryBudget());
  }

  private static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }
    return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
  }
}
