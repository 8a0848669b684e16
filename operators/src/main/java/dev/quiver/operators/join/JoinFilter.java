package dev.quiver.operators.join;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A join's residual condition, evaluated on a batch of candidate pairs (pairs whose equi keys match
 * in a hash join; every pair in a nested loop join).
 *
 * <p>Pair {@code i} of a call is build row {@code buildRows[i]} of {@code build} with probe row
 * {@code probeRows[i]} of {@code probe}, for {@code i < count}. {@code keep[0 .. count)} arrives
 * all false; the filter sets {@code keep[i] = true} exactly when the condition is TRUE for the pair
 * (FALSE and NULL both reject: SQL WHERE semantics). It must not change or keep the batches, nor
 * change the row arrays. Its {@code toString()} is one line; operators print it. Calls are batched
 * (up to the operator's target batch size of pairs), so an implementation can evaluate
 * column-at-a-time, for example by gathering the columns it needs with {@code Take}.
 */
public interface JoinFilter {
  /** Evaluates the condition on {@code count} pairs into {@code keep[0 .. count)}. */
  void filter(
      VectorSchemaRoot build,
      int[] buildRows,
      VectorSchemaRoot probe,
      int[] probeRows,
      int count,
      boolean[] keep);
}
