package dev.quiver.plan.node;

/**
 * Dispatch over the exchange node types. There is deliberately no default implementation and no
 * adapter class: a pass that handles exchanges implements every method, so adding an exchange type
 * is a compile error in every pass that has not decided what to do with it.
 */
public interface ExchangeVisitor<R> {
  R visitRepartition(Repartition exchange);

  R visitCoalesce(Coalesce exchange);

  R visitSortPreservingMerge(SortPreservingMerge exchange);

  R visitBroadcast(Broadcast exchange);
}
