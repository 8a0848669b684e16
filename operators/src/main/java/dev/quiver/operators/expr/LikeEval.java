package dev.quiver.operators.expr;

import dev.quiver.plan.expr.Like;

/** {@code s [NOT] LIKE 'pattern'} with a {@link LikePattern} compiled once. */
final class LikeEval extends PredicateEval {
  private final LikePattern pattern;
  private final byte match;

  LikeEval(Like like, Eval input) {
    super(like.toString(), input);
    this.pattern = new LikePattern(like.pattern(), like.escape());
    this.match = (byte) (like.negated() ? 0 : 1);
  }

  @Override
  void truth(EvalContext ctx, Col[] values, Selection selection, byte[] truth) {
    Col s = values[0];
    int[] rows = selection.rows();
    for (int k = 0, n = selection.size(); k < n; k++) {
      int i = rows[k];
      boolean matches = pattern.matches(s.data, s.start(i), s.end(i));
      truth[i] = matches ? match : (byte) (1 - match);
    }
  }
}
