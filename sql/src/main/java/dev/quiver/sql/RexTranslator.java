package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.plan.expr.Case;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.Like;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Translates one Calcite row expression over a known input schema into a Quiver {@link Expr}.
 * Column references take their type and name from the Quiver input schema (not from Calcite), so
 * that the expression types always agree with what the operator below actually produces.
 */
final class RexTranslator {
  private final RowSchema input;
  private final RexBuilder rexBuilder;

  RexTranslator(RowSchema input, RexBuilder rexBuilder) {
    this.input = requireNonNull(input, "input is null");
    this.rexBuilder = requireNonNull(rexBuilder, "rexBuilder is null");
  }

  Expr translate(RexNode node) {
    if (node instanceof RexInputRef ref) {
      Column column = input.column(ref.getIndex());
      return new ColumnRef(ref.getIndex(), column.type(), column.nullable(), column.name());
    }
    if (node instanceof RexLiteral literal) {
      return literal(literal);
    }
    if (node instanceof RexCall call) {
      return call(call);
    }
    throw Errors.unsupported("expression " + node + " (" + node.getKind() + ")");
  }

  private List<Expr> operands(RexCall call) {
    List<Expr> args = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      args.add(translate(operand));
    }
    return args;
  }

  private Expr call(RexCall call) {
    if (call instanceof org.apache.calcite.rex.RexOver) {
      throw Errors.unsupported("window functions (OVER): " + call);
    }
    if (DateDays.isDays(call)) {
      // The integer of date ± n (DateDays): Quiver's date ± integer counts it in days.
      return translate(call.getOperands().get(0));
    }
    switch (call.getKind()) {
      case SEARCH:
        // Calcite's simplifier folds BETWEEN / IN / ranges into SEARCH(x, Sarg); undo that.
        return translate(RexUtil.expandSearch(rexBuilder, null, call));
      case PLUS_PREFIX:
        return translate(call.getOperands().get(0));
      case CAST:
        if (RexUtil.isNullabilityCast(rexBuilder.getTypeFactory(), call)) {
          // Calcite's cast to the type it already has, for nullability only (e.g. above a window
          // call whose frame always holds the current row): to Quiver, where a column's type is its
          // own (AVG / SUM over a window: the aggregate types), it would be a real cast.
          return translate(call.getOperands().get(0));
        }
        return Exprs.cast(
            translate(call.getOperands().get(0)),
            TypeMapping.fromCalcite(call.getType(), call.toString()));
      case CASE:
        return caseWhen(call);
      case LIKE:
        return like(call);
      case EXTRACT:
        return extract(call);
      case TRIM:
        return trim(call);
      case POSITION:
        return position(call);
      case IS_TRUE:
        // x IS TRUE: TRUE only for TRUE; never NULL.
        return Exprs.call(ScalarFunction.COALESCE, operand(call, 0), Exprs.lit(false));
      case IS_NOT_TRUE:
        return Exprs.not(Exprs.call(ScalarFunction.COALESCE, operand(call, 0), Exprs.lit(false)));
      case IS_FALSE:
        return Exprs.call(ScalarFunction.COALESCE, Exprs.not(operand(call, 0)), Exprs.lit(false));
      case IS_NOT_FALSE:
        return Exprs.call(ScalarFunction.COALESCE, operand(call, 0), Exprs.lit(true));
      case IS_NOT_DISTINCT_FROM:
        return notDistinct(operand(call, 0), operand(call, 1));
      case IS_DISTINCT_FROM:
        return Exprs.not(notDistinct(operand(call, 0), operand(call, 1)));
      default:
        ScalarFunction core = coreFunction(call);
        if (core != null) {
          return Exprs.call(core, operands(call));
        }
        String name = call.getOperator().getName();
        if (LibraryFunctions.has(name)) {
          return FunctionRegistry.call(name, libraryOperands(call));
        }
        throw Errors.unsupported("function " + name + " in " + call);
    }
  }

  /**
   * The arguments of a library function call; an untyped NULL ({@code greatest(1, NULL)}) becomes a
   * VARCHAR NULL literal, which the function's signature then converts to the type it needs.
   */
  private List<Expr> libraryOperands(RexCall call) {
    List<Expr> args = new ArrayList<>();
    for (RexNode operand : call.getOperands()) {
      args.add(
          operand instanceof RexLiteral literal
                  && literal.getType().getSqlTypeName() == SqlTypeName.NULL
              ? Exprs.nullOf(SqlType.VARCHAR)
              : translate(operand));
    }
    return args;
  }

  /** The core operator (arithmetic, comparison, logic, the original string functions) or null. */
  private static ScalarFunction coreFunction(RexCall call) {
    switch (call.getKind()) {
      case PLUS:
        return ScalarFunction.ADD;
      case MINUS:
        return ScalarFunction.SUBTRACT;
      case TIMES:
        return ScalarFunction.MULTIPLY;
      case DIVIDE:
        return ScalarFunction.DIVIDE;
      case MOD:
        return ScalarFunction.MODULO;
      case MINUS_PREFIX:
        return ScalarFunction.NEGATE;
      case EQUALS:
        return ScalarFunction.EQUAL;
      case NOT_EQUALS:
        return ScalarFunction.NOT_EQUAL;
      case LESS_THAN:
        return ScalarFunction.LESS_THAN;
      case LESS_THAN_OR_EQUAL:
        return ScalarFunction.LESS_THAN_OR_EQUAL;
      case GREATER_THAN:
        return ScalarFunction.GREATER_THAN;
      case GREATER_THAN_OR_EQUAL:
        return ScalarFunction.GREATER_THAN_OR_EQUAL;
      case AND:
        return ScalarFunction.AND;
      case OR:
        return ScalarFunction.OR;
      case NOT:
        return ScalarFunction.NOT;
      case IS_NULL:
        return ScalarFunction.IS_NULL;
      case IS_NOT_NULL:
        return ScalarFunction.IS_NOT_NULL;
      case COALESCE:
        return ScalarFunction.COALESCE;
      case NULLIF:
        return ScalarFunction.NULLIF;
      default:
        break;
    }
    switch (call.getOperator().getName().toUpperCase(java.util.Locale.ROOT)) {
      case "||":
        return ScalarFunction.CONCAT;
      case "UPPER":
        return ScalarFunction.UPPER;
      case "LOWER":
        return ScalarFunction.LOWER;
      case "CHAR_LENGTH":
      case "CHARACTER_LENGTH":
        return ScalarFunction.CHAR_LENGTH;
      case "SUBSTRING":
        return ScalarFunction.SUBSTRING;
      case "ABS":
        return ScalarFunction.ABS;
      case "ROUND":
        return ScalarFunction.ROUND;
      default:
        return null;
    }
  }

  private Expr operand(RexCall call, int i) {
    return translate(call.getOperands().get(i));
  }

  /**
   * {@code a IS NOT DISTINCT FROM b}: equality where NULL equals NULL, never NULL itself: {@code
   * CASE WHEN a IS NULL THEN b IS NULL WHEN b IS NULL THEN FALSE ELSE a = b END}.
   */
  private static Expr notDistinct(Expr a, Expr b) {
    return Exprs.caseWhen(
        Exprs.call(ScalarFunction.EQUAL, a, b),
        Exprs.when(Exprs.call(ScalarFunction.IS_NULL, a), Exprs.call(ScalarFunction.IS_NULL, b)),
        Exprs.when(Exprs.call(ScalarFunction.IS_NULL, b), Exprs.lit(false)));
  }

  /** {@code TRIM([BOTH|LEADING|TRAILING] chars FROM s)}: Calcite passes (flag, chars, s). */
  private Expr trim(RexCall call) {
    String flag = String.valueOf(((RexLiteral) call.getOperands().get(0)).getValue());
    ScalarFunction function =
        switch (flag.toUpperCase(java.util.Locale.ROOT)) {
          case "LEADING" -> ScalarFunction.TRIM_LEADING;
          case "TRAILING" -> ScalarFunction.TRIM_TRAILING;
          default -> ScalarFunction.TRIM_BOTH;
        };
    return Exprs.call(function, operand(call, 2), operand(call, 1));
  }

  /**
   * {@code POSITION(sub IN s)}: the library's {@code strpos(s, sub)}, a BIGINT, cast to the INTEGER
   * Calcite typed the call with.
   */
  private Expr position(RexCall call) {
    if (call.getOperands().size() != 2) {
      throw Errors.unsupported("POSITION(... FROM start): " + call);
    }
    return Exprs.cast(
        FunctionRegistry.call("strpos", operand(call, 1), operand(call, 0)),
        TypeMapping.fromCalcite(call.getType(), call.toString()));
  }

  private Expr caseWhen(RexCall call) {
    List<RexNode> operands = call.getOperands();
    List<Case.When> whens = new ArrayList<>();
    for (int i = 0; i + 1 < operands.size(); i += 2) {
      whens.add(Exprs.when(translate(operands.get(i)), translate(operands.get(i + 1))));
    }
    return new Case(whens, translate(operands.get(operands.size() - 1)));
  }

  private Expr like(RexCall call) {
    List<RexNode> operands = call.getOperands();
    if (!(operands.get(1) instanceof RexLiteral pattern)) {
      throw Errors.unsupported("LIKE with a non-constant pattern: " + call);
    }
    Character escape = null;
    if (operands.size() > 2) {
      String text = ((RexLiteral) operands.get(2)).getValueAs(String.class);
      escape = text == null || text.isEmpty() ? null : text.charAt(0);
    }
    return new Like(
        translate(operands.get(0)),
        pattern.getValueAs(String.class),
        escape,
        call.op.getName().toUpperCase(java.util.Locale.ROOT).startsWith("NOT"));
  }

  private Expr extract(RexCall call) {
    TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
    Expr value = translate(call.getOperands().get(1));
    switch (unit) {
      case YEAR:
        return Exprs.call(ScalarFunction.EXTRACT_YEAR, value);
      case MONTH:
        return Exprs.call(ScalarFunction.EXTRACT_MONTH, value);
      case DAY:
        return Exprs.call(ScalarFunction.EXTRACT_DAY, value);
      default:
        // The other units are date_part's (DuckDB's meanings: DOW counts from Sunday = 0, WEEK is
        // ISO's), typed as Calcite typed the EXTRACT so that what Calcite derived above agrees.
        if (unit.endUnit != null) {
          throw Errors.unsupported("EXTRACT(" + unit + ") in " + call);
        }
        Expr unitName = Exprs.lit(unit.name().toLowerCase(java.util.Locale.ROOT));
        Expr part;
        try {
          part = FunctionRegistry.call("date_part", unitName, value);
        } catch (dev.quiver.error.QuiverException e) {
          throw Errors.unsupported("EXTRACT(" + unit + ") in " + call);
        }
        SqlType type = TypeMapping.fromCalcite(call.getType(), call.toString());
        return part.sqlType().equals(type) ? part : Exprs.cast(part, type);
    }
  }

  private static Expr literal(RexLiteral literal) {
    SqlType type = TypeMapping.fromCalcite(literal.getType(), literal.toString());
    if (literal.isNull()) {
      return Exprs.nullOf(type);
    }
    SqlTypeFamily family = literal.getType().getSqlTypeName().getFamily();
    if (family == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
      return Exprs.intervalMonths(literal.getValueAs(BigDecimal.class).intValueExact());
    }
    if (family == SqlTypeFamily.INTERVAL_DAY_TIME) {
      return Exprs.interval(
          Duration.ofMillis(literal.getValueAs(BigDecimal.class).longValueExact()));
    }
    switch (type.kind()) {
      case BOOLEAN:
        return Exprs.lit(literal.getValueAs(Boolean.class));
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        return Exprs.lit(literal.getValueAs(Integer.class));
      case BIGINT:
        return Exprs.lit(literal.getValueAs(Long.class));
      case REAL:
      case DOUBLE:
        return Exprs.lit(literal.getValueAs(Double.class));
      case DECIMAL:
        return Exprs.lit(literal.getValueAs(BigDecimal.class));
      case VARCHAR:
        return Exprs.lit(literal.getValueAs(String.class));
      case DATE:
        return new dev.quiver.plan.expr.Literal(
            LocalDate.ofEpochDay(literal.getValueAs(DateString.class).getDaysSinceEpoch()),
            SqlType.DATE);
      case TIMESTAMP:
        // TimestampString keeps every digit of the fraction ("2024-01-02 03:04:05.123456").
        return new dev.quiver.plan.expr.Literal(
            LocalDateTime.parse(
                literal.getValueAs(TimestampString.class).toString().replace(' ', 'T')),
            SqlType.TIMESTAMP);
      default:
        throw Errors.unsupported("literal " + literal + " of type " + type);
    }
  }
}
