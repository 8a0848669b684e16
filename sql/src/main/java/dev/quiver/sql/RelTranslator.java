package dev.quiver.sql;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.distribute.EnforceDistribution;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.ScanFilter;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.Mappings;

/**
 * Translates an optimized Calcite logical plan into a single-node Quiver plan: joins with their
 * strategy, SINGLE aggregates, grouping sets, windows, unions, GLOBAL sorts, top-k and limits, and
 * no exchanges; {@link SqlPlanner} then runs the planner's pass ({@link EnforceDistribution}),
 * which places every exchange. Anything else is rejected with "not supported" rather than planned
 * wrongly.
 */
final class RelTranslator {
  private final PlannerOptions options;
  private final int parallelism;
  private final JoinTranslator joins;
  private final WindowTranslator windows;
  private final SetOpTranslator setOps;
  // The catalog table of every source this translator built, for predicate pushdown.
  private final Map<TableSource, CatalogTable> tables = new IdentityHashMap<>();

  RelTranslator(PlannerOptions options) {
    this.options = options;
    this.parallelism = options.parallelism();
    this.joins = new JoinTranslator(this, options);
    this.windows = new WindowTranslator(this);
    this.setOps = new SetOpTranslator(this);
  }

  /** The plan of {@code root}, its output columns named {@code names} (the query's names). */
  PlanBuilder translateRoot(RelNode root, List<String> names) {
    PlanBuilder plan = translate(root);
    List<Integer> all = new ArrayList<>();
    boolean same = true;
    for (int i = 0; i < names.size(); i++) {
      all.add(i);
      same &= names.get(i).equals(plan.schema().column(i).name());
    }
    return same ? plan : project(plan, all, names);
  }

  PlanBuilder translate(RelNode rel) {
    if (rel instanceof TableScan scan) {
      return scan(scan);
    }
    if (rel instanceof Join join) {
      return joins.translate(join);
    }
    if (rel instanceof Union union) {
      return union(union);
    }
    if (rel instanceof Intersect || rel instanceof Minus) {
      return setOps.translate((SetOp) rel);
    }
    if (rel instanceof Values values) {
      return values(values);
    }
    if (rel instanceof Filter filter) {
      PlanBuilder input = translate(filter.getInput());
      Expr condition = rex(input, filter).translate(filter.getCondition());
      return pushToScan(input, condition).filter(condition);
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
    if (rel instanceof org.apache.calcite.rel.core.Window window) {
      return windows.translate(window);
    }
    if (rel instanceof org.apache.calcite.rel.core.TableFunctionScan function) {
      return WindowTableFunctions.translate(this, function);
    }
    throw Errors.unsupported(feature(rel));
  }

  /** What a user would call the construct behind {@code rel}. */
  private static String feature(RelNode rel) {
    if (rel instanceof org.apache.calcite.rel.core.Window) {
      return "window functions (OVER)";
    }
    if (rel instanceof org.apache.calcite.rel.core.Correlate) {
      return "this correlated subquery (it could not be decorrelated)";
    }
    if (rel instanceof org.apache.calcite.rel.core.Uncollect) {
      return "UNNEST";
    }
    return rel.getRelTypeName() + " (" + rel.getDigest() + ")";
  }

  private static RexTranslator rex(PlanBuilder input, RelNode rel) {
    return new RexTranslator(input.schema(), rel.getCluster().getRexBuilder());
  }

  /** A scan of every column of the table. */
  private PlanBuilder scan(TableScan scan) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < scan.getRowType().getFieldCount(); i++) {
      all.add(i);
    }
    return scan(scan, all);
  }

  /**
   * A scan of {@code columns} of the table only (projection pushdown): the source's schema is
   * narrowed, so the connector reads nothing else. Every task of the scan stage gets its share of
   * the table's split units from the stage planner.
   */
  private PlanBuilder scan(TableScan scan, List<Integer> columns) {
    QuiverTable table = scan.getTable().unwrap(QuiverTable.class);
    if (table == null) {
      throw Errors.unsupported("table " + scan.getTable().getQualifiedName());
    }
    CatalogTable catalogTable = table.table();
    List<Column> read = new ArrayList<>();
    for (int column : columns) {
      read.add(catalogTable.schema().column(column));
    }
    TableSource source =
        new TableSource(
            catalogTable.name(), new RowSchema(read), catalogTable.units(), catalogTable.options());
    tables.put(source, catalogTable);
    return PlanBuilder.scan(source, parallelism);
  }

  /**
   * Predicate pushdown: when {@code input} is a bare scan, the scan with the comparisons of {@code
   * condition} it may skip data with (see {@link ScanFilters}) and only the units the table's
   * statistics do not rule out; otherwise {@code input} unchanged. The caller keeps the filter.
   */
  private PlanBuilder pushToScan(PlanBuilder input, Expr condition) {
    if (!(input.build() instanceof Scan scan) || scan.source().filter().isPresent()) {
      return input;
    }
    CatalogTable table = tables.get(scan.source());
    Optional<ScanFilter> filter =
        ScanFilters.derive(condition, scan.source().schema()).flatMap(f -> physical(f, table));
    if (table == null || filter.isEmpty()) {
      return input;
    }
    TableSource source = scan.source().withFilter(filter.get(), table.units(filter.get()));
    tables.put(source, table);
    return PlanBuilder.scan(source, scan.tasks());
  }

  /**
   * The comparisons of {@code filter} on physical columns of {@code table}: a computed or metadata
   * column is not stored, so no file or statistic can be skipped by it.
   */
  private static Optional<ScanFilter> physical(ScanFilter filter, CatalogTable table) {
    if (table == null) {
      return Optional.of(filter);
    }
    TableColumns columns = TableColumns.of(table.name(), table.schema(), table.options());
    if (columns.allPhysical()) {
      return Optional.of(filter);
    }
    List<ScanFilter.Comparison> kept =
        filter.conjuncts().stream()
            .filter(
                c ->
                    columns
                        .column(c.column())
                        .map(d -> d.kind() == TableColumns.Kind.PHYSICAL)
                        .orElse(false))
            .toList();
    return kept.isEmpty() ? Optional.empty() : Optional.of(new ScanFilter(kept));
  }

  private PlanBuilder project(Project project) {
    List<RexNode> projects = project.getProjects();
    PlanBuilder input;
    if (project.getInput() instanceof TableScan scan) {
      // Projection pushdown: read only the referenced columns, renumbered in table order.
      ImmutableBitSet used = RelOptUtil.InputFinder.bits(projects, null);
      input = scan(scan, used.asList());
      Mapping mapping = Mappings.source(used.asList(), scan.getRowType().getFieldCount()).inverse();
      projects = RexUtil.apply(mapping, projects);
    } else {
      input = translate(project.getInput());
    }
    List<String> names = project.getRowType().getFieldNames();
    List<Integer> refs = new ArrayList<>();
    for (RexNode node : projects) {
      if (node instanceof RexInputRef ref) {
        refs.add(ref.getIndex());
      }
    }
    if (refs.size() == projects.size()) {
      return project(input, refs, names); // only column references: none when nothing changes
    }
    RexTranslator rex = rex(input, project);
    List<Expr> exprs = new ArrayList<>();
    for (RexNode node : projects) {
      exprs.add(rex.translate(node));
    }
    return input.project(exprs, names);
  }

  /** {@code columns} of {@code plan}, named {@code names}; no projection when nothing changes. */
  static PlanBuilder project(PlanBuilder plan, List<Integer> columns, List<String> names) {
    boolean identity = columns.size() == plan.schema().size();
    List<Expr> exprs = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      int c = columns.get(i);
      Column column = plan.schema().column(c);
      identity &= c == i && column.name().equals(names.get(i));
      exprs.add(new ColumnRef(c, column.type(), column.nullable(), column.name()));
    }
    return identity ? plan : plan.project(exprs, names);
  }

  /**
   * UNION ALL (UNION DISTINCT arrives as an aggregate over it): inputs are cast to the union's
   * column types; the planner's pass brings them to the same number of partitions.
   */
  private PlanBuilder union(Union union) {
    if (!union.all) {
      throw Errors.unsupported("UNION without ALL after rewriting: " + union);
    }
    List<PlanBuilder> inputs = new ArrayList<>();
    for (RelNode input : union.getInputs()) {
      inputs.add(castTo(translate(input), union.getRowType()));
    }
    return unionAll(inputs);
  }

  /** UNION ALL of {@code inputs}; the pass brings them to the same number of partitions. */
  PlanBuilder unionAll(List<PlanBuilder> inputs) {
    PlanBuilder first = inputs.get(0);
    return first.union(inputs.subList(1, inputs.size()).toArray(new PlanBuilder[0]));
  }

  private static PlanBuilder castTo(PlanBuilder plan, RelDataType rowType) {
    List<Expr> exprs = new ArrayList<>();
    boolean same = true;
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      Column column = plan.schema().column(i);
      SqlType target =
          TypeMapping.fromCalcite(rowType.getFieldList().get(i).getType(), column.name());
      Expr ref = new ColumnRef(i, column.type(), column.nullable(), column.name());
      same &= target.equals(column.type());
      exprs.add(target.equals(column.type()) ? ref : Exprs.cast(ref, target));
    }
    return same ? plan : plan.project(exprs, rowType.getFieldNames());
  }

  private PlanBuilder values(Values values) {
    List<Column> columns = new ArrayList<>();
    for (RelDataTypeField field : values.getRowType().getFieldList()) {
      columns.add(
          new Column(
              field.getName(),
              TypeMapping.fromCalcite(field.getType(), field.getName()),
              field.getType().isNullable()));
    }
    RexTranslator rex =
        new RexTranslator(new RowSchema(List.of()), values.getCluster().getRexBuilder());
    List<List<Object>> rows = new ArrayList<>();
    for (List<RexLiteral> tuple : values.getTuples()) {
      List<Object> row = new ArrayList<>();
      for (int i = 0; i < tuple.size(); i++) {
        Expr value = rex.translate(tuple.get(i));
        if (!(value instanceof Literal literal)) {
          throw Errors.unsupported("VALUES entry " + tuple.get(i));
        }
        Object v = literal.value();
        SqlType columnType = columns.get(i).type();
        if (v instanceof BigDecimal decimal
            && columnType.kind() == SqlType.Kind.DECIMAL
            && literal.sqlType().kind() == SqlType.Kind.DECIMAL) {
          // The literal's own precision comes from its digits (1.50 is DECIMAL(3,2)); the column's
          // type is what the query asked for, and the value fits it exactly or not at all.
          v = decimal.setScale(columnType.scale(), RoundingMode.UNNECESSARY);
        } else if (v != null && !literal.sqlType().equals(columnType)) {
          throw Errors.unsupported(
              "VALUES entry "
                  + tuple.get(i)
                  + " of type "
                  + literal.sqlType()
                  + " in a column of type "
                  + columns.get(i).type()
                  + "; cast it");
        }
        row.add(v);
      }
      rows.add(row);
    }
    return PlanBuilder.values(new RowSchema(columns), rows);
  }

  private PlanBuilder aggregate(Aggregate aggregate) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      PlanBuilder input = translate(aggregate.getInput());
      return GroupingSets.translate(input, aggregate, this); // ROLLUP, CUBE, GROUPING SETS
    }
    List<Integer> keys = aggregate.getGroupSet().asList();
    List<org.apache.calcite.rel.core.AggregateCall> sqlCalls = aggregate.getAggCallList();
    PlanBuilder input;
    if (aggregate.getInput() instanceof TableScan scan) {
      // Projection pushdown for an aggregate straight over a table (COUNT(*) FROM t reads no
      // column at all): the scan reads the columns the keys and calls use, renumbered.
      ImmutableBitSet.Builder fields = aggregate.getGroupSet().rebuild();
      for (org.apache.calcite.rel.core.AggregateCall call : sqlCalls) {
        fields.addAll(call.getArgList());
        if (call.filterArg >= 0) {
          fields.set(call.filterArg);
        }
        call.getCollation().getFieldCollations().forEach(f -> fields.set(f.getFieldIndex()));
      }
      ImmutableBitSet used = fields.build();
      input = scan(scan, used.asList());
      Mapping mapping = Mappings.source(used.asList(), scan.getRowType().getFieldCount()).inverse();
      keys = Mappings.apply2(mapping, keys);
      List<org.apache.calcite.rel.core.AggregateCall> mapped = new ArrayList<>();
      for (org.apache.calcite.rel.core.AggregateCall call : sqlCalls) {
        mapped.add(call.transform(mapping));
      }
      sqlCalls = mapped;
    } else {
      input = translate(aggregate.getInput());
    }
    List<AggregateCall> calls = new ArrayList<>();
    List<String> names = aggregate.getRowType().getFieldNames();
    for (int i = 0; i < sqlCalls.size(); i++) {
      calls.add(AggregateCalls.translate(input, sqlCalls.get(i), names.get(keys.size() + i)));
    }
    // A single-node aggregate; the pass splits it into PARTIAL, exchange, FINAL (or adds the
    // exchange below it) unless its input already holds every group in one partition.
    return input.aggregate(AggregateMode.SINGLE, keys, calls);
  }

  /**
   * ORDER BY, LIMIT and OFFSET as single-node operators: a GLOBAL sort, top-k or limit, whose
   * exchanges (a sort or top-k per partition and a merge, a local limit and a gather) the planner's
   * pass places.
   */
  private PlanBuilder sort(Sort sort) {
    PlanBuilder input = translate(sort.getInput());
    long offset = sort.offset == null ? 0 : longValue(sort.offset);
    long fetch = sort.fetch == null ? Limit.ALL : longValue(sort.fetch);
    SortKey[] keys =
        sort.getCollation().getFieldCollations().stream()
            .map(RelTranslator::sortKey)
            .toArray(SortKey[]::new);
    boolean limited = fetch != Limit.ALL || offset > 0;
    if (keys.length == 0) {
      return limited ? input.limit(offset, fetch) : input;
    }
    return limited ? input.topK(List.of(keys), fetch, offset) : input.orderBy(keys);
  }

  /** The sort key of one collation field, with Calcite's default null direction. */
  static SortKey sortKey(RelFieldCollation field) {
    boolean ascending = !field.getDirection().isDescending();
    RelFieldCollation.NullDirection nulls =
        field.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
            ? field.getDirection().defaultNullDirection()
            : field.nullDirection;
    return new SortKey(
        field.getFieldIndex(), ascending, nulls == RelFieldCollation.NullDirection.FIRST);
  }

  private static long longValue(RexNode node) {
    if (node instanceof RexLiteral literal) {
      return literal.getValueAs(Long.class);
    }
    throw Errors.unsupported("LIMIT / OFFSET with a non-constant value: " + node);
  }
}
