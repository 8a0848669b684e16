package dev.quiver.operators.exec;

import dev.quiver.operators.Operator;

/**
 * One vertex of a {@link TaskPipeline}: an operator fed by its children, or a source (no inputs).
 * {@code unfinished} counts the inputs that have not ended yet; a source counts itself until it has
 * run.
 */
final class PipelineNode {
  final PipelineNode parent;
  final int slot;
  Operator operator; // null for a source
  TaskPipeline.Source source; // null for an operator
  int unfinished;

  PipelineNode(PipelineNode parent, int slot) {
    this.parent = parent;
    this.slot = slot;
  }

  void close() {
    if (operator != null) {
      operator.close();
    } else if (source != null) {
      source.close();
    }
  }

  @Override
  public String toString() {
    return String.valueOf(operator != null ? operator : source);
  }

  /**
   * A leaf of the pipeline in depth-first order: stage input {@code index} feeding slot {@code
   * slot} of {@code consumer}, or (index -1) the source {@code source}.
   */
  static final class Leaf {
    final int index;
    final PipelineNode consumer;
    final int slot;
    final PipelineNode source;
    boolean finished;
    boolean endless; // a stage input that reads a stream: nothing after it waits for its end

    private Leaf(int index, PipelineNode consumer, int slot, PipelineNode source) {
      this.index = index;
      this.consumer = consumer;
      this.slot = slot;
      this.source = source;
    }

    static Leaf input(int index, PipelineNode consumer, int slot) {
      return new Leaf(index, consumer, slot, null);
    }

    static Leaf source(PipelineNode source) {
      return new Leaf(-1, source.parent, source.slot, source);
    }

    boolean isSource() {
      return source != null;
    }
  }
}
