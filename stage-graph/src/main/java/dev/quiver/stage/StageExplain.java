package dev.quiver.stage;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.StageInput;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * EXPLAIN for stage graphs: the canonical text that plan tests compare with golden files, and a
 * Graphviz DOT rendering. Both are deterministic: stages in id order, nodes depth first in input
 * order.
 *
 * <p>Text: one block per stage, separated by a blank line; a header with id, task count, output
 * distribution and inputs (producer stage and mode), then the operator tree, one node per line,
 * indented two spaces per level:
 *
 * <pre>
 * Stage 0  tasks=3  output=hash([#0], 4)  inputs=[]
 *   Aggregate[PARTIAL, keys=[#1], calls=[sum(#2) AS total]]
 *     Scan[orders, units=13, tasks=[5 units 5000 B, 4 units 4000 B, 4 units 4000 B]]
 *
 * Stage 1 (final)  tasks=4  output=none  inputs=[0 SHUFFLE]
 *   Aggregate[FINAL, keys=[#1], calls=[sum(#2) AS total]]
 *     StageInput[stage=0, SHUFFLE]
 * </pre>
 *
 * A stage that several stage inputs read (a shared subplan, computed once) says who reads it at the
 * end of its header, {@code readers=[3, 5, 5]} (stage 5 reads it twice); in DOT it is one box,
 * drawn bold, with an edge to each reader.
 */
public final class StageExplain {
  private StageExplain() {}

  public static String text(StageGraph graph) {
    return text(graph, stage -> List.of());
  }

  /**
   * {@link #text(StageGraph)} with {@code notes} of each stage printed under its header, each line
   * prefixed with {@code " | "} (EXPLAIN ANALYZE puts each task's figures there).
   */
  public static String text(StageGraph graph, Function<Stage, List<String>> notes) {
    StringBuilder text = new StringBuilder();
    for (Stage stage : graph.stages()) {
      if (stage.id() > 0) {
        text.append('\n');
      }
      text.append(header(graph, stage)).append('\n');
      for (String note : notes.apply(stage)) {
        text.append("  | ").append(note).append('\n');
      }
      for (String line : tree(stage.plan())) {
        text.append("  ").append(line).append('\n');
      }
    }
    return text.toString();
  }

  /**
   * Stages as boxes (header, then the operator tree), edges from producer to consumer labelled with
   * the input mode; data flows upwards, as in the text.
   */
  public static String dot(StageGraph graph) {
    StringBuilder dot = new StringBuilder("digraph stages {\n");
    dot.append("  rankdir=BT;\n");
    dot.append("  node [shape=box, fontname=\"Courier\", fontsize=10];\n");
    for (Stage stage : graph.stages()) {
      StringBuilder label = new StringBuilder(escape(header(graph, stage))).append("\\l");
      for (String line : tree(stage.plan())) {
        label.append(escape(line)).append("\\l");
      }
      dot.append("  s").append(stage.id()).append(" [label=\"").append(label).append('"');
      dot.append(graph.isShared(stage.id()) ? ", style=bold" : "").append("];\n");
    }
    for (Stage stage : graph.stages()) {
      for (StageInput input : stage.inputs()) {
        dot.append("  s").append(input.stage()).append(" -> s").append(stage.id());
        dot.append(" [label=\"").append(input.mode()).append("\"];\n");
      }
    }
    return dot.append("}\n").toString();
  }

  private static String header(StageGraph graph, Stage stage) {
    StringBuilder header = new StringBuilder("Stage ").append(stage.id());
    if (stage == graph.finalStage()) {
      header.append(" (final)");
    }
    header.append("  tasks=").append(stage.tasks());
    header.append("  output=").append(stage.distribution());
    header.append("  inputs=[");
    List<StageInput> inputs = stage.inputs();
    for (int i = 0; i < inputs.size(); i++) {
      header.append(i == 0 ? "" : ", ").append(inputs.get(i).stage()).append(' ');
      header.append(inputs.get(i).mode());
    }
    header.append(']');
    List<Integer> readers = graph.readers(stage.id());
    if (readers.size() > 1) {
      header.append("  readers=").append(readers);
    }
    return header.toString();
  }

  private static List<String> tree(PlanNode plan) {
    List<String> lines = new ArrayList<>();
    addLines(plan, 0, lines);
    return lines;
  }

  private static void addLines(PlanNode node, int depth, List<String> lines) {
    lines.add("  ".repeat(depth) + node);
    for (PlanNode child : node.children()) {
      addLines(child, depth + 1, lines);
    }
  }

  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
