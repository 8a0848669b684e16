package dev.quiver.operators.exec;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import java.util.function.Function;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Two one-input operators in a row as one operator: the first's output is the second's input.
 *
 * <pre>
 *   add(0, b) ─► first ─► second ─► sink        finish(0) ─► first.finish(0), then second.finish(0)
 * </pre>
 *
 * For the operators that a per-window operator ({@code dev.quiver.operators.windowed}) runs as one,
 * once per window: a window function and the sort below it. A task pipeline chains operators too,
 * but it is driven by stage inputs, not itself an operator. Bounded input only: watermarks,
 * idleness and state are the wrapper's business, not the chain's.
 */
public final class OperatorChain implements Operator {
  private final Operator first;
  private final Operator second;

  /** {@code first} made with the sink that feeds {@code second}, which writes to {@code sink}. */
  public OperatorChain(
      Function<BatchSink, Operator> first, Function<BatchSink, Operator> second, BatchSink sink) {
    requireNonNull(first, "first is null");
    this.second = requireNonNull(second, "second is null").apply(sink);
    Operator made;
    try {
      made = first.apply(batch -> this.second.add(0, batch));
    } catch (RuntimeException | Error e) {
      this.second.close();
      throw e;
    }
    this.first = made;
    if (this.first.inputs() != 1 || this.second.inputs() != 1) {
      String chain = toString();
      close();
      throw new IllegalArgumentException("a chain takes one-input operators: " + chain);
    }
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    first.add(input, batch);
  }

  @Override
  public void finish(int input) {
    first.finish(input);
    second.finish(0);
  }

  @Override
  public void close() {
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(first, second));
  }

  /** {@code Window[...] ← Sort[...]}: the operator that emits, then the one that feeds it. */
  @Override
  public String toString() {
    return second + " ← " + first;
  }
}
