package dev.quiver.operators.exec;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One task of a stage: a tree of {@link Operator}s whose leaves are the stage's inputs, driven by
 * pushing each input's batches in. Every operator's output is pushed into its parent; the root's
 * output goes to the task's sink.
 *
 * <pre>
 *   stage input 0 ──► [build]
 *                        HashJoin ──► Aggregate ──► task sink
 *   stage input 1 ──► [probe]
 * </pre>
 *
 * <p>An operator is finished as soon as all its inputs are, which finishes its slot in the parent,
 * and so on up. {@link #inputOrder()} is the order in which the task should read its inputs (depth
 * first over children in input order), so that every operator sees input 0 end before input 1
 * starts — what a hash join needs of its build and probe sides. Reading the inputs in any other
 * order is allowed where no operator cares; the operators themselves enforce their needs.
 *
 * <p>Owns its operators: {@link #close()} closes every one of them.
 */
public final class TaskPipeline implements AutoCloseable {
  private final Node root;
  private final List<Leaf> leaves;
  private final List<Node> nodes;
  private final int[] order;

  private TaskPipeline(Node root, List<Leaf> leaves, List<Node> nodes, int[] order) {
    this.root = root;
    this.leaves = leaves;
    this.nodes = nodes;
    this.order = order;
  }

  /** A leaf: stage input {@code index} feeds the slot of the operator this is given to. */
  public static Spec input(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("input index must be >= 0: " + index);
    }
    return new Spec(index, null, List.of());
  }

  /**
   * An operator made by {@code factory} from the sink that receives its output, fed by {@code
   * children} (child i feeds input i of the operator).
   */
  public static Spec operator(Function<BatchSink, Operator> factory, Spec... children) {
    return new Spec(-1, requireNonNull(factory, "factory is null"), List.of(children));
  }

  /**
   * Builds the pipeline whose root writes to {@code sink}. Stage inputs must be 0..n-1, once each.
   */
  public static TaskPipeline build(Spec root, BatchSink sink) {
    requireNonNull(root, "root is null");
    requireNonNull(sink, "sink is null");
    if (root.factory == null) {
      throw new IllegalArgumentException("the root of a task pipeline must be an operator");
    }
    List<Leaf> leaves = new ArrayList<>();
    List<Node> nodes = new ArrayList<>();
    List<Integer> order = new ArrayList<>();
    Node top;
    try {
      top = create(root, sink, null, -1, leaves, nodes, order);
    } catch (RuntimeException e) {
      nodes.forEach(node -> node.operator.close());
      throw e;
    }
    int[] inputOrder = order.stream().mapToInt(Integer::intValue).toArray();
    List<Leaf> byIndex = new ArrayList<>();
    for (int i = 0; i < leaves.size(); i++) {
      byIndex.add(null);
    }
    for (Leaf leaf : leaves) {
      if (leaf.index >= leaves.size() || byIndex.get(leaf.index) != null) {
        nodes.forEach(node -> node.operator.close());
        throw new IllegalArgumentException(
            "stage inputs must be numbered 0.." + (leaves.size() - 1) + " once each");
      }
      byIndex.set(leaf.index, leaf);
    }
    return new TaskPipeline(top, byIndex, nodes, inputOrder);
  }

  private static Node create(
      Spec spec,
      BatchSink output,
      Node parent,
      int slot,
      List<Leaf> leaves,
      List<Node> nodes,
      List<Integer> order) {
    Node node = new Node(parent, slot);
    node.operator = spec.factory.apply(output);
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
      Spec child = spec.children.get(i);
      if (child.factory == null) {
        leaves.add(new Leaf(child.input, node, i));
        order.add(child.input);
      } else {
        int input = i;
        create(child, batch -> node.operator.add(input, batch), node, i, leaves, nodes, order);
      }
    }
    if (node.unfinished == 0) {
      throw new IllegalArgumentException(node.operator + " has no inputs");
    }
    return node;
  }

  /** Number of stage inputs. */
  public int inputCount() {
    return leaves.size();
  }

  /** Stage inputs in the order the task should read them to completion. */
  public int[] inputOrder() {
    return order.clone();
  }

  /** Pushes one batch of stage input {@code input}; the pipeline takes ownership. */
  public void add(int input, VectorSchemaRoot batch) {
    Leaf leaf;
    try {
      leaf = leaf(input);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    leaf.consumer.operator.add(leaf.slot, batch);
  }

  /** Stage input {@code input} has no more batches. */
  public void finish(int input) {
    Leaf leaf = leaf(input);
    if (leaf.finished) {
      throw new IllegalStateException("stage input " + input + " finished twice");
    }
    leaf.finished = true;
    finishSlot(leaf.consumer, leaf.slot);
  }

  /** Whether every operator, up to the root, has finished. */
  public boolean isFinished() {
    return root.unfinished == 0;
  }

  private void finishSlot(Node node, int slot) {
    node.operator.finish(slot);
    if (--node.unfinished == 0 && node.parent != null) {
      finishSlot(node.parent, node.slot);
    }
  }

  private Leaf leaf(int input) {
    if (input < 0 || input >= leaves.size()) {
      throw new IllegalArgumentException("no stage input " + input + " in " + this);
    }
    return leaves.get(input);
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (Node node : nodes) {
      try {
        node.operator.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** The operators, one per line, children indented below their parent. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    describe(root, 0, text);
    return text.toString();
  }

  private void describe(Node node, int depth, StringBuilder text) {
    text.append("  ".repeat(depth)).append(node.operator).append('\n');
    for (Node child : nodes) {
      if (child.parent == node) {
        describe(child, depth + 1, text);
      }
    }
    for (Leaf leaf : leaves) {
      if (leaf.consumer == node) {
        text.append("  ".repeat(depth + 1)).append("Input[").append(leaf.index).append("]\n");
      }
    }
  }

  /** What to build: a stage input leaf, or an operator over children. */
  public static final class Spec {
    private final int input;
    private final Function<BatchSink, Operator> factory;
    private final List<Spec> children;

    private Spec(int input, Function<BatchSink, Operator> factory, List<Spec> children) {
      this.input = input;
      this.factory = factory;
      this.children = children;
    }
  }

  private static final class Node {
    private final Node parent;
    private final int slot;
    private Operator operator;
    private int unfinished;

    Node(Node parent, int slot) {
      this.parent = parent;
      this.slot = slot;
    }
  }

  private static final class Leaf {
    private final int index;
    private final Node consumer;
    private final int slot;
    private boolean finished;

    Leaf(int index, Node consumer, int slot) {
      this.index = index;
      this.consumer = consumer;
      this.slot = slot;
    }
  }
}
