package dev.quiver.operators.exec;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.expr.CompiledExpression;
import dev.quiver.operators.expr.ExpressionCompiler;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.join.JoinFilter;
import dev.quiver.operators.kernel.Take;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A join's residual condition (a BOOLEAN {@link Expr} over {@code [probe columns][build columns]},
 * as {@link dev.quiver.plan.node.HashJoin} and {@link dev.quiver.plan.node.NestedLoopJoin} define
 * it) evaluated by the expression engine.
 *
 * <pre>
 *   pairs (buildRows[i], probeRows[i]) ─► gather the columns the condition reads ─► joined batch
 *     [probe 0 .. p-1][build 0 .. b-1]  ─► predicate.select ─► keep[row] = true
 * </pre>
 *
 * Only the referenced columns are gathered; the others are empty vectors of their type, which the
 * evaluator never reads. Gathered vectors are released before {@link #filter} returns.
 */
final class ResidualJoinFilter implements JoinFilter {
  private final CompiledExpression predicate;
  private final Schema joined;
  private final int probeColumns;
  private final BitSet used;
  private final BufferAllocator allocator;

  ResidualJoinFilter(Expr condition, Schema probe, Schema build, BufferAllocator allocator) {
    requireNonNull(condition, "condition is null");
    if (!condition.sqlType().equals(SqlType.BOOLEAN)) {
      throw new IllegalArgumentException("join condition is not BOOLEAN: " + condition);
    }
    this.predicate = ExpressionCompiler.compile(condition);
    List<Field> fields = new ArrayList<>(probe.getFields());
    fields.addAll(build.getFields());
    this.joined = new Schema(fields);
    this.probeColumns = probe.getFields().size();
    this.used = new BitSet();
    columns(predicate.expression(), used);
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  private static void columns(Expr expr, BitSet used) {
    if (expr instanceof ColumnRef) { // a leaf test, not dispatch: every other node recurses
      used.set(((ColumnRef) expr).index());
    }
    for (Expr child : expr.children()) {
      columns(child, used);
    }
  }

  @Override
  public void filter(
      VectorSchemaRoot build,
      int[] buildRows,
      VectorSchemaRoot probe,
      int[] probeRows,
      int count,
      boolean[] keep) {
    List<FieldVector> vectors = new ArrayList<>(joined.getFields().size());
    try {
      for (int c = 0; c < joined.getFields().size(); c++) {
        boolean fromProbe = c < probeColumns;
        if (!used.get(c)) {
          vectors.add(joined.getFields().get(c).createVector(allocator)); // no buffers yet
        } else if (fromProbe) {
          vectors.add(Take.take(probe.getVector(c), probeRows, count, allocator));
        } else {
          vectors.add(Take.take(build.getVector(c - probeColumns), buildRows, count, allocator));
        }
      }
      VectorSchemaRoot pairs = new VectorSchemaRoot(joined.getFields(), vectors, count);
      Selection kept = predicate.select(pairs, allocator);
      int[] rows = kept.rows();
      for (int i = 0; i < kept.size(); i++) {
        keep[rows[i]] = true;
      }
    } finally {
      vectors.forEach(FieldVector::close);
    }
  }

  /** {@code (#2 < #5)}. */
  @Override
  public String toString() {
    return predicate.expression().toString();
  }
}
