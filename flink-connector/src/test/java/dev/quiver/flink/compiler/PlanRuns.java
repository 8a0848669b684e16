package dev.quiver.flink.compiler;

import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.StageInput;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import dev.quiver.testing.BatchRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Runs plans as Flink jobs on the test MiniCluster and reads their rows back. */
final class PlanRuns {
  private PlanRuns() {}

  /** What a run produced: the stage graph the job ran and every result row. */
  record Run(StageGraph graph, List<List<Object>> rows) {
    /** The input modes of every edge of the graph. */
    Set<InputMode> modes() {
      Set<InputMode> modes = new TreeSet<>();
      for (Stage stage : graph.stages()) {
        stage.inputs().stream().map(StageInput::mode).forEach(modes::add);
      }
      return modes;
    }
  }

  /** Plans {@code plan} with the default rewrites and runs it. */
  static Run run(PlanNode plan, BufferAllocator allocator) throws Exception {
    return run(plan, StagePlanner.withDefaultRewrites(), new StageGraphCompiler(), allocator);
  }

  static Run run(
      PlanNode plan, StagePlanner planner, StageGraphCompiler compiler, BufferAllocator allocator)
      throws Exception {
    JobRunner runner = new JobRunner(planner, compiler);
    List<List<Object>> rows = new ArrayList<>();
    try (QueryResult result =
        runner.run(FlinkTestJobs.batchEnvironment(), plan, allocator, "quiver-compiler-test")) {
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          rows.addAll(BatchRows.rows(batch));
        }
      }
      return new Run(result.graph(), rows);
    }
  }
}
