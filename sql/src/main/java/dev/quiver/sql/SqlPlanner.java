package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.distribute.EnforceDistribution;
import dev.quiver.plan.distribute.ReplicateSmallBuilds;
import dev.quiver.plan.distribute.RuntimeFilters;
import dev.quiver.plan.distribute.SpreadUnbalancedScans;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.type.TypeRules;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.tools.RelConversionException;
import org.apache.calcite.tools.ValidationException;

/**
 * SQL text to a Quiver plan: parse with the Babel parser (so the TPC-H text parses unchanged, e.g.
 * Q11's {@code as value}), validate against the {@link Catalog}, convert to relational algebra,
 * rewrite with {@link LogicalRewrites} (a heuristic program: Volcano's standard program was far too
 * slow on TPC-H), then translate with exchanges for the given parallelism.
 */
public final class SqlPlanner {
  private final Catalog catalog;

  public SqlPlanner(Catalog catalog) {
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  /** Plans {@code sql} for {@code parallelism} tasks per distributed stage, default options. */
  public PlanNode plan(String sql, int parallelism) {
    return plan(sql, PlannerOptions.of(parallelism));
  }

  /** Plans {@code sql} with {@code options}. */
  public PlanNode plan(String sql, PlannerOptions options) {
    requireNonNull(sql, "sql is null");
    requireNonNull(options, "options is null");
    return translate(toRel(sql), options, null);
  }

  /** Whether {@code sql} is an {@code INSERT} statement (by its first word, after comments). */
  public static boolean isInsert(String sql) {
    return Statements.nonQuery(requireNonNull(sql, "sql is null")).equals(Optional.of("INSERT"));
  }

  /**
   * Plans {@code INSERT INTO target SELECT ...} (or {@code ... VALUES ...}): the query is planned
   * as {@link #plan} plans it, its columns made into the target's ({@link InsertPlan}). Writing the
   * rows is the caller's: this module knows no connector.
   *
   * @throws dev.quiver.error.QuiverException if {@code sql} is not an INSERT, the target does not
   *     exist, the query's columns do not fit the target's (one line naming the column), or the
   *     query cannot be planned
   */
  public InsertPlan planInsert(String sql, PlannerOptions options) {
    requireNonNull(sql, "sql is null");
    requireNonNull(options, "options is null");
    CatalogTable[] target = new CatalogTable[1];
    RelNode rel = toRel(sql, target);
    return new InsertPlan(target[0], translate(rel, options, target[0]));
  }

  /** The plan of {@code rel}; with {@code target}, with exactly the target's column types. */
  private PlanNode translate(RelNode rel, PlannerOptions options, CatalogTable target) {
    // The query's column names, taken before the rewrites: removing a projection that only
    // renames (SELECT b AS s ...) also drops its names.
    List<String> names = rel.getRowType().getFieldNames();
    RelNode logical = LogicalRewrites.apply(rel);
    // A single-node plan, then the passes that place every exchange at the query's parallelism.
    PlanNode plan = new RelTranslator(options).translateRoot(logical, names).build();
    if (target != null) {
      plan = InsertTargets.retype(plan, target);
    }
    plan =
        SpreadUnbalancedScans.withParallelism(options.parallelism(), options.spreadThresholdBytes())
            .apply(plan);
    plan = EnforceDistribution.withParallelism(options.parallelism()).apply(plan);
    plan = ReplicateSmallBuilds.upTo(options.replicateBuildBytes()).apply(plan);
    return RuntimeFilters.create().apply(plan);
  }

  /** The optimized Calcite plan, for debugging and tests. */
  public String explainLogical(String sql) {
    return RelOptUtil.toString(LogicalRewrites.apply(toRel(sql)));
  }

  /**
   * {@code sql} without the semicolons (and blanks) that end it, as a file of one statement usually
   * has them; what comes before keeps its line and column numbers.
   */
  static String withoutTerminator(String sql) {
    int end = sql.length();
    while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
      end--;
    }
    return sql.substring(0, end);
  }

  private RelNode toRel(String sql) {
    return toRel(sql, null);
  }

  /**
   * The relational plan of the query {@code sql}; with {@code insertTarget}, of the INSERT {@code
   * sql}, whose target is put into {@code insertTarget[0]} and whose query's columns are made into
   * the target's.
   */
  private RelNode toRel(String sql, CatalogTable[] insertTarget) {
    Planner planner = Frameworks.getPlanner(config());
    String text = DateFunctionSyntax.unquoteUnits(withoutTerminator(sql));
    try {
      SqlNode parsed = planner.parse(text);
      CatalogTable target = null;
      if (insertTarget == null) {
        Statements.checkQuery(parsed, text); // DDL, DML, SET: before the validator trips on them
      } else if (parsed instanceof SqlInsert insert) {
        target = InsertTargets.target(insert, catalog);
        parsed = insert.getSource();
      } else {
        throw Errors.invalid("not an INSERT statement: " + Statements.name(parsed, text), null);
      }
      parsed = DateFunctionSyntax.rewrite(parsed);
      SqlNode validated = planner.validate(parsed);
      RelNode rel = CurrentDate.pin(planner.rel(validated).project(), LocalDate.now());
      if (target != null) {
        rel = InsertTargets.project(rel, target);
        insertTarget[0] = target;
      }
      JoinSelectivity.install(rel.getCluster());
      return rel;
    } catch (SqlParseException e) {
      Optional<String> statement = Statements.nonQuery(text);
      if (statement.isPresent()) {
        throw Statements.unsupported(
            statement.get(), text); // DROP VIEW: not a query, whatever its syntax
      }
      throw Errors.syntax(
          "syntax error at line "
              + e.getPos().getLineNum()
              + ", column "
              + e.getPos().getColumnNum()
              + ": "
              + firstLine(e.getMessage()),
          e);
    } catch (ValidationException e) {
      throw Errors.invalid(NameSuggestions.addTo(validationMessage(e), catalog), e);
    } catch (RelConversionException e) {
      throw Errors.unsupported("cannot convert the query: " + e.getMessage());
    } finally {
      planner.close();
    }
  }

  private FrameworkConfig config() {
    SchemaPlus root = Frameworks.createRootSchema(false);
    SchemaPlus schema = root.add("quiver", catalog.toCalciteSchema());
    return Frameworks.newConfigBuilder()
        .parserConfig(
            SqlParser.config()
                .withParserFactory(SqlBabelParserImpl.FACTORY)
                // Standard SQL plus a % b (LENIENT's other additions: GROUP BY an alias or an
                // ordinal).
                .withConformance(SqlConformanceEnum.LENIENT)
                .withCaseSensitive(false)
                .withUnquotedCasing(Casing.UNCHANGED)
                .withQuotedCasing(Casing.UNCHANGED))
        .defaultSchema(schema)
        // The standard operators plus PostgreSQL's BOOL_AND / BOOL_OR (EVERY is standard): all
        // three are MIN / MAX of a boolean, which is AND / OR with NULLs skipped. MIN_BY / MAX_BY
        // are DuckDB's names of the standard table's ARG_MIN / ARG_MAX; MEDIAN and QUANTILE_CONT /
        // QUANTILE_DISC are DuckDB's (LibraryAggregates); STRING_AGG is PostgreSQL's LISTAGG.
        // Quiver's library functions first (FunctionRegistry: concat, lpad, ...), so a library
        // function shadows a standard one of the same name.
        .operatorTable(
            SqlOperatorTables.chain(
                LibraryFunctions.INSTANCE,
                SqlStdOperatorTable.instance(),
                SqlOperatorTables.of(
                    SqlLibraryOperators.BOOL_AND,
                    SqlLibraryOperators.BOOL_OR,
                    SqlLibraryOperators.MIN_BY,
                    SqlLibraryOperators.MAX_BY,
                    SqlLibraryOperators.STRING_AGG,
                    LibraryAggregates.MEDIAN,
                    LibraryAggregates.QUANTILE_CONT,
                    LibraryAggregates.QUANTILE_DISC,
                    CumulateTableFunction.INSTANCE)))
        // CASE / UNION over string literals of different lengths is VARCHAR, not padded CHAR:
        // CASE WHEN .. THEN 'no a' ELSE 'a' END yields 'a', as in PostgreSQL and DuckDB.
        .typeSystem(
            new RelDataTypeSystemImpl() {
              @Override
              public boolean shouldConvertRaggedUnionTypesToVarying() {
                return true;
              }

              // Quiver's TIMESTAMP holds microseconds: TIMESTAMP '... 03:04:05.123456' keeps
              // all six digits (Calcite's default maximum is milliseconds).
              @Override
              public int getMaxPrecision(SqlTypeName typeName) {
                return typeName == SqlTypeName.TIMESTAMP ? 6 : super.getMaxPrecision(typeName);
              }

              // SUM and AVG typed as Quiver's aggregate and window operators type them, so that
              // what Calcite derives from them (a UNION's column type, a CAST) agrees.
              @Override
              public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argument) {
                return AggregateTypes.sum(factory, argument);
              }

              // A quotient whose exact decimal type needs more than 38 digits is DOUBLE, as
              // Quiver types it (TypeRules.quotientFits), not a decimal cut to 6 decimals.
              @Override
              public RelDataType deriveDecimalDivideType(
                  RelDataTypeFactory factory, RelDataType dividend, RelDataType divisor) {
                RelDataType exact = super.deriveDecimalDivideType(factory, dividend, divisor);
                if (exact == null
                    || TypeRules.quotientFits(
                        TypeMapping.fromCalcite(dividend, "a dividend"),
                        TypeMapping.fromCalcite(divisor, "a divisor"))) {
                  return exact;
                }
                return factory.createTypeWithNullability(
                    factory.createSqlType(SqlTypeName.DOUBLE), exact.isNullable());
              }

              @Override
              public RelDataType deriveAvgAggType(
                  RelDataTypeFactory factory, RelDataType argument) {
                return AggregateTypes.avg(factory, argument);
              }
            })
        // No implicit casts between type families: SUM(a VARCHAR) is a type error here, not a
        // runtime failure on the first non-numeric string. Coercion is on only so that an untyped
        // NULL (SELECT NULL AS x ... UNION ...) is valid; NoImplicitCasts declines every cast.
        .sqlValidatorConfig(
            SqlValidator.Config.DEFAULT
                .withTypeCoercionEnabled(true)
                .withTypeCoercionFactory(NoImplicitCasts::new))
        // The reduce rules fold constants only when the cluster's planner has an executor.
        .executor(FoldingExecutor.INSTANCE)
        .sqlToRelConverterConfig(SqlToRelConverter.config().withExpand(false))
        // AVG and SUM over a window stay AVG and SUM: the window operator's own, with the types of
        // the aggregate functions.
        .convertletTable(WindowConvertlets.INSTANCE)
        .build();
  }

  /** Calcite wraps the positioned message ("From line 1, column 15 ...") in a cause. */
  private static String validationMessage(ValidationException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CalciteContextException context) {
        return context.getMessage();
      }
    }
    return e.getMessage();
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
