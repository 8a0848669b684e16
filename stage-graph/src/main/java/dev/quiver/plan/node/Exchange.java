package dev.quiver.plan.node;

import dev.quiver.plan.sort.SortKey;
import java.util.List;

/**
 * A node that moves rows between tasks: the only place a plan's partitioning changes other than at
 * its leaves. The stage cutter cuts at every exchange; everything else runs inside one task.
 *
 * <p>Every exchange has one input and carries one {@link Distribution}, which says how its rows
 * move. Plan visitors see all exchanges through {@link PlanVisitor#visitExchange}; passes that
 * treat the exchange types differently dispatch on with {@link #accept(ExchangeVisitor)} or switch
 * over {@link Distribution.Kind} with a switch expression, both of which fail to compile when a new
 * exchange is forgotten.
 *
 * <p>The subclasses are the only ones: the constructor is package-private.
 */
public abstract class Exchange extends PlanNode {
  private static final long serialVersionUID = 1L;

  Exchange(PlanNode input, Partitioning partitioning, List<SortKey> ordering) {
    super(List.of(input), input.schema(), partitioning, ordering);
  }

  public final PlanNode input() {
    return child(0);
  }

  /** How this exchange moves its input's rows. */
  public abstract Distribution distribution();

  /** The same exchange over another input. */
  public abstract Exchange withInput(PlanNode input);

  public abstract <R> R accept(ExchangeVisitor<R> visitor);

  @Override
  public final <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitExchange(this);
  }

  @Override
  public final PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : withInput(children.get(0));
  }

  /** {@code node} as an exchange, or null when it is another kind of node. */
  public static Exchange as(PlanNode node) {
    return node.accept(
        new DefaultPlanVisitor<Exchange>() {
          @Override
          protected Exchange visitDefault(PlanNode other) {
            return null;
          }

          @Override
          public Exchange visitExchange(Exchange exchange) {
            return exchange;
          }
        });
  }
}
