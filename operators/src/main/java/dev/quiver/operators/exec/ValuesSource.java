package dev.quiver.operators.exec;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.values.ValuesOperator;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.node.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Values} node as a pipeline source: the plan's typed literals become the plain values
 * {@link ValuesOperator} takes ({@link Literal#value()}), checked when the task builds its
 * pipeline; running it emits every row.
 */
final class ValuesSource implements TaskPipeline.Source {
  private final ValuesOperator values;

  ValuesSource(OperatorContext context, Values node, BatchSink sink) {
    List<List<Object>> rows = new ArrayList<>(node.rows().size());
    for (List<Literal> row : node.rows()) {
      List<Object> plain = new ArrayList<>(row.size());
      for (Literal literal : row) {
        plain.add(literal.value());
      }
      rows.add(plain);
    }
    this.values = new ValuesOperator(context, node.arrowSchema(), rows, sink);
  }

  @Override
  public void run() {
    values.start();
  }

  @Override
  public void close() {
    values.close();
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
