package dev.quiver.plan.expr;

/** Dispatch over the expression node types (instead of {@code instanceof} chains). */
public interface ExprVisitor<R> {
  R visitColumn(ColumnRef column);

  R visitLiteral(Literal literal);

  R visitCall(Call call);

  /** A library function, by name (the operators module's function registry). */
  R visitFunction(FunctionCall call);

  R visitCase(Case caseExpr);

  R visitCast(Cast cast);

  R visitInList(InList inList);

  R visitLike(Like like);
}
