package dev.quiver.sql;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.Repartition;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.sort.SortKey;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Translates an optimized Calcite logical plan into Quiver plan nodes, inserting the exchanges a
 * distributed run needs: two-phase aggregation around a hash repartition, per-task sort plus an
 * ordered merge for ORDER BY, and a global limit on a single partition. Anything else is rejected
 * with "not supported" rather than planned wrongly.
 */
final class RelTranslator {
  private final int parallelism;

  RelTranslator(int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
    }
    this.parallelism = parallelism;
  }

  PlanBuilder translate(RelNode rel) {
    if (rel instanceof TableScan scan) {
      return scan(scan);
    }
    if (rel instanceof Filter filter) {
      PlanBuilder input = translate(filter.getInput());
      return input.filter(rex(input, filter).translate(filter.getCondition()));
    }
    if (rel instanceof Project project) {
      return project(project);
    }
    if (rel instanceof Aggregate aggregate) {
      return aggregate(aggregate);
    }
    if (rel instanceof Sort sort) {
      return sort(sort);
    }
    throw Errors.unsupported(rel.getRelTypeName() + " (" + rel.getDigest() + ")");
  }

  private static RexTranslator rex(PlanBuilder input, RelNode rel) {
    return new RexTranslator(input.schema(), rel.getCluster().getRexBuilder());
  }

  /** One dummy split unit per task until the connector provides real ones. */
  private PlanBuilder scan(TableScan scan) {
    QuiverTable table = scan.getTable().unwrap(QuiverTable.class);
    if (table == null) {
      throw Errors.unsupported("table " + scan.getTable().getQualifiedName());
    }
    CatalogTable catalogTable = table.table();
    List<SplitUnit> units = new ArrayList<>();
    long rowsPerUnit = catalogTable.rowCount() / parallelism;
    for (int i = 0; i < parallelism; i++) {
      units.add(SplitUnit.file(catalogTable.name() + "/part-" + i, rowsPerUnit, rowsPerUnit));
    }
    return PlanBuilder.scan(
        new TableSource(catalogTable.name(), catalogTable.schema(), units), parallelism);
  }

  private PlanBuilder project(Project project) {
    PlanBuilder input = translate(project.getInput());
    RexTranslator rex = rex(input, project);
    List<Expr> exprs = new ArrayList<>();
    for (RexNode node : project.getProjects()) {
      exprs.add(rex.translate(node));
    }
    return input.project(exprs, project.getRowType().getFieldNames());
  }

  private PlanBuilder aggregate(Aggregate aggregate) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      throw Errors.unsupported("GROUPING SETS / ROLLUP / CUBE");
    }
    PlanBuilder input = translate(aggregate.getInput());
    List<Integer> keys = aggregate.getGroupSet().asList();
    List<AggregateCall> calls = new ArrayList<>();
    List<String> names = aggregate.getRowType().getFieldNames();
    boolean twoPhase = true;
    for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
      AggregateCall call =
          call(input, aggregate.getAggCallList().get(i), names.get(keys.size() + i));
      twoPhase &= call.hasPartialState();
      calls.add(call);
    }
    if (input.partitions() == 1) {
      return input.aggregate(AggregateMode.SINGLE, keys, calls);
    }
    if (!twoPhase) {
      // DISTINCT aggregates have no mergeable state: gather each group on one task first.
      return exchange(input, keys).aggregate(AggregateMode.SINGLE, keys, calls);
    }
    PlanBuilder partial = input.aggregate(AggregateMode.PARTIAL, keys, calls);
    List<Integer> partialKeys = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      partialKeys.add(i);
    }
    return exchange(partial, partialKeys).aggregate(AggregateMode.FINAL, keys, calls);
  }

  private PlanBuilder exchange(PlanBuilder input, List<Integer> keys) {
    if (keys.isEmpty()) {
      return input.coalesce(1);
    }
    return input.repartition(Repartition.Scheme.hash(keys), parallelism);
  }

  private static AggregateCall call(
      PlanBuilder input, org.apache.calcite.rel.core.AggregateCall call, String name) {
    if (call.filterArg >= 0 || !call.getCollation().getFieldCollations().isEmpty()) {
      throw Errors.unsupported("aggregate FILTER / WITHIN GROUP in " + call);
    }
    List<Integer> args = call.getArgList();
    if (call.getAggregation().getKind() == org.apache.calcite.sql.SqlKind.COUNT && args.isEmpty()) {
      return AggregateCall.countStar(name);
    }
    if (args.size() != 1) {
      throw Errors.unsupported("aggregate with " + args.size() + " arguments: " + call);
    }
    AggregateFunction function =
        switch (call.getAggregation().getKind()) {
          case COUNT -> AggregateFunction.COUNT;
          case SUM -> AggregateFunction.SUM;
          case AVG -> AggregateFunction.AVG;
          case MIN -> AggregateFunction.MIN;
          case MAX -> AggregateFunction.MAX;
          // Any value of the group is a correct answer, and MIN has mergeable partial state.
          // (The validator emits ANY_VALUE for a selected GROUP BY expression under Babel.)
          case ANY_VALUE -> AggregateFunction.MIN;
          default -> throw Errors.unsupported("aggregate function " + call.getAggregation());
        };
    int arg = args.get(0);
    Column column = input.schema().column(arg);
    return new AggregateCall(function, arg, column.type().arrow(), call.isDistinct(), name);
  }

  private PlanBuilder sort(Sort sort) {
    PlanBuilder input = translate(sort.getInput());
    long offset = sort.offset == null ? 0 : longValue(sort.offset);
    long fetch = sort.fetch == null ? Limit.ALL : longValue(sort.fetch);
    List<SortKey> keys = new ArrayList<>();
    for (RelFieldCollation field : sort.getCollation().getFieldCollations()) {
      boolean ascending = !field.getDirection().isDescending();
      RelFieldCollation.NullDirection nulls =
          field.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
              ? field.getDirection().defaultNullDirection()
              : field.nullDirection;
      keys.add(
          new SortKey(
              field.getFieldIndex(), ascending, nulls == RelFieldCollation.NullDirection.FIRST));
    }
    boolean limited = fetch != Limit.ALL || offset > 0;
    if (keys.isEmpty()) {
      if (input.partitions() > 1) {
        input = (fetch == Limit.ALL ? input : input.localLimit(offset + fetch)).coalesce(1);
      }
      return limited ? input.limit(offset, fetch) : input;
    }
    if (input.partitions() == 1) {
      return limited ? input.topK(keys, fetch, offset) : input.sort(keys.toArray(new SortKey[0]));
    }
    PlanBuilder sorted =
        fetch == Limit.ALL
            ? input.sort(keys.toArray(new SortKey[0]))
            : input.localTopK(keys, offset + fetch);
    PlanBuilder merged = sorted.merge(keys.toArray(new SortKey[0]));
    return limited ? merged.limit(offset, fetch) : merged;
  }

  private static long longValue(RexNode node) {
    if (node instanceof RexLiteral literal) {
      return literal.getValueAs(Long.class);
    }
    throw Errors.unsupported("LIMIT / OFFSET with a non-constant value: " + node);
  }
}
