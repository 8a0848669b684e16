package dev.quiver.operators.exec;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import java.util.ArrayList;
import java.util.List;

/** Builds the vertices of a {@link TaskPipeline} from its spec, depth first. */
final class PipelineAssembly {
  private PipelineAssembly() {}

  /** The stage input leaves of {@code schedule} by index; they must be 0..n-1, once each. */
  static List<PipelineNode.Leaf> byIndex(List<PipelineNode.Leaf> schedule) {
    List<PipelineNode.Leaf> leaves = new ArrayList<>();
    schedule.stream().filter(leaf -> !leaf.isSource()).forEach(leaves::add);
    PipelineNode.Leaf[] byIndex = new PipelineNode.Leaf[leaves.size()];
    for (PipelineNode.Leaf leaf : leaves) {
      if (leaf.index >= byIndex.length || byIndex[leaf.index] != null) {
        throw new IllegalArgumentException(
            "stage inputs must be numbered 0.." + (byIndex.length - 1) + " once each");
      }
      byIndex[leaf.index] = leaf;
    }
    return List.of(byIndex);
  }

  /** The vertex of {@code spec} (and, recursively, its children) writing to {@code output}. */
  static PipelineNode create(
      TaskPipeline.Spec spec,
      BatchSink output,
      PipelineNode parent,
      int slot,
      List<PipelineNode.Leaf> schedule,
      List<PipelineNode> nodes) {
    PipelineNode node = new PipelineNode(parent, slot);
    if (spec.sourceFactory != null) {
      node.source = requireNonNull(spec.sourceFactory.apply(output), "source factory gave null");
      nodes.add(node);
      node.unfinished = 1; // itself, until it has run
      schedule.add(PipelineNode.Leaf.source(node));
      return node;
    }
    node.operator = requireNonNull(spec.factory.apply(output), "operator factory gave null");
    nodes.add(node);
    if (node.operator.inputs() != spec.children.size()) {
      throw new IllegalArgumentException(
          node.operator
              + " has "
              + node.operator.inputs()
              + " inputs, given "
              + spec.children.size());
    }
    node.unfinished = spec.children.size();
    for (int i = 0; i < spec.children.size(); i++) {
      TaskPipeline.Spec child = spec.children.get(i);
      if (child.isInput()) {
        schedule.add(PipelineNode.Leaf.input(child.input, node, i));
      } else {
        int input = i;
        create(child, batch -> node.operator.add(input, batch), node, i, schedule, nodes);
      }
    }
    if (node.unfinished == 0) {
      throw new IllegalArgumentException(
          node.operator + " has no inputs; an operator without inputs is a source()");
    }
    return node;
  }
}
