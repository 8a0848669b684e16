package dev.quiver.sql;

import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlInternalOperator;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.DateString;

/**
 * {@code date + n}, {@code n + date} and {@code date - n} for an integer {@code n} of days, as in
 * PostgreSQL and DuckDB (TPC-DS q72: {@code d1.d_date + 5}). Quiver's plans have these (Signatures:
 * a DATE, the days added exactly, NUMERIC_OVERFLOW outside DATE's range); Calcite's {@code +} and
 * {@code -} take a date only with an interval and reject the call before anything else sees it.
 *
 * <p>So {@link NoImplicitCasts}, whose binary-arithmetic hook Calcite calls just before it checks
 * the operands of {@code +} and {@code -}, wraps the integer in {@link #DAYS}, an INTERVAL DAY to
 * Calcite. The call then validates and converts as {@code date ± interval} does, and {@link
 * RexTranslator} drops the wrapper again: Quiver gets its own {@code date ± n}. Other mixes ({@code
 * date + 1.5}, {@code n - date}, {@code timestamp + n}) stay validation errors.
 *
 * <pre>
 *   d + 5  ─validate─►  d + $DAYS(5)  ─SqlToRel─►  DATETIME_PLUS(d, $DAYS(5))  ─Quiver─►  ADD(d, 5)
 * </pre>
 */
final class DateDays {
  private DateDays() {}

  /**
   * An integer as a number of days: INTERVAL DAY, NULL where the integer is. It prints as the
   * integer, so {@code d + 1} reads as written in messages and where Calcite matches expressions by
   * their text (a GROUP BY expression in the select list).
   */
  static final SqlOperator DAYS =
      new SqlInternalOperator(
          "$DAYS",
          SqlKind.OTHER,
          100,
          true,
          binding -> {
            RelDataTypeFactory factory = binding.getTypeFactory();
            RelDataType days =
                factory.createSqlIntervalType(
                    new SqlIntervalQualifier(TimeUnit.DAY, null, SqlParserPos.ZERO));
            return factory.createTypeWithNullability(days, binding.getOperandType(0).isNullable());
          },
          null,
          OperandTypes.family(SqlTypeFamily.INTEGER)) {
        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
          call.operand(0).unparse(writer, leftPrec, rightPrec);
        }
      };

  /**
   * Wraps the integer operand of {@code date + n}, {@code n + date} or {@code date - n} in {@link
   * #DAYS}; true if it did.
   */
  static boolean wrapDays(SqlCallBinding binding) {
    SqlKind kind = binding.getOperator().getKind();
    if ((kind != SqlKind.PLUS && kind != SqlKind.MINUS) || binding.getOperandCount() != 2) {
      return false;
    }
    RelDataType left = binding.getOperandType(0);
    RelDataType right = binding.getOperandType(1);
    int days;
    if (isDate(left) && SqlTypeUtil.isIntType(right)) {
      days = 1;
    } else if (kind == SqlKind.PLUS && SqlTypeUtil.isIntType(left) && isDate(right)) {
      days = 0;
    } else {
      return false;
    }
    SqlCall call = binding.getCall();
    SqlNode operand = call.operand(days);
    SqlCall wrapped = DAYS.createCall(operand.getParserPosition(), operand);
    call.setOperand(days, wrapped);
    binding.getValidator().deriveType(binding.getScope(), wrapped);
    return true;
  }

  private static boolean isDate(RelDataType type) {
    return type.getSqlTypeName() == SqlTypeName.DATE;
  }

  static boolean isDays(RexNode node) {
    return node instanceof RexCall call && call.getOperator() == DAYS;
  }

  /**
   * {@code expression} with each {@code DATE literal ± $DAYS(integer literal)} replaced by the DATE
   * literal it comes to (NULL if either is NULL), where that is a DATE (an int of days since
   * 1970-01-01): Calcite's own folding does not know {@link #DAYS}. A result outside DATE's range
   * stays unfolded and is the kernel's NUMERIC_OVERFLOW if a row ever reaches it.
   */
  static RexNode foldLiterals(RexBuilder rexBuilder, RexNode expression) {
    return expression.accept(
        new RexShuttle() {
          @Override
          public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            RexNode folded = folded(rexBuilder, visited);
            return folded == null ? visited : folded;
          }
        });
  }

  private static RexNode folded(RexBuilder rexBuilder, RexCall call) {
    SqlKind kind = call.getKind();
    List<RexNode> operands = call.getOperands();
    if ((kind != SqlKind.PLUS && kind != SqlKind.MINUS)
        || operands.size() != 2
        || !isDate(call.getType())
        || !(operands.get(0) instanceof RexLiteral date)
        || !isDays(operands.get(1))
        || !(((RexCall) operands.get(1)).getOperands().get(0) instanceof RexLiteral days)) {
      return null;
    }
    if (date.isNull() || days.isNull()) {
      return rexBuilder.makeNullLiteral(call.getType());
    }
    long day = date.getValueAs(DateString.class).getDaysSinceEpoch();
    long count = days.getValueAs(Long.class);
    long sum;
    try {
      sum = kind == SqlKind.PLUS ? Math.addExact(day, count) : Math.subtractExact(day, count);
    } catch (ArithmeticException e) {
      return null;
    }
    if (sum != (int) sum) {
      return null;
    }
    RexNode literal = rexBuilder.makeDateLiteral(DateString.fromDaysSinceEpoch((int) sum));
    return rexBuilder.makeCast(call.getType(), literal, true, false);
  }
}
