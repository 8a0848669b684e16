package dev.quiver.sql;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's type coercion that never casts: every coercion declines, so {@code SUM(varchar)} or
 * {@code bigint + '1'} stay type errors, as with coercion off.
 *
 * <p>Why not simply coercion off: Calcite's validator then rejects every untyped {@code NULL} in a
 * select list ({@code Illegal use of 'NULL'}), such as the rolled-up columns of TPC-DS q27 and q36
 * ({@code SELECT NULL AS s_state ... UNION ALL ...}); with coercion on (and this class) such a NULL
 * gets the NULL type and then the type of its UNION column, as in standard SQL.
 *
 * <p>The one operand it rewrites, without a cast: the integer of {@code date + n}, {@code n + date}
 * and {@code date - n} becomes a number of days ({@link DateDays}).
 */
final class NoImplicitCasts extends TypeCoercionImpl {
  NoImplicitCasts(RelDataTypeFactory typeFactory, SqlValidator validator) {
    super(typeFactory, validator);
  }

  @Override
  public boolean rowTypeCoercion(
      SqlValidatorScope scope, SqlNode query, int columnIndex, RelDataType targetType) {
    return false;
  }

  @Override
  public boolean inOperationCoercion(SqlCallBinding binding) {
    return false;
  }

  @Override
  public boolean quantifyOperationCoercion(SqlCallBinding binding) {
    return false;
  }

  /** No casts; the one rewrite is DATE ± integer, which becomes DATE ± a number of days. */
  @Override
  public boolean binaryArithmeticCoercion(SqlCallBinding binding) {
    return DateDays.wrapDays(binding);
  }

  @Override
  public boolean binaryComparisonCoercion(SqlCallBinding binding) {
    return false;
  }

  @Override
  public boolean caseWhenCoercion(SqlCallBinding binding) {
    return false;
  }

  @Override
  public boolean caseOrEquivalentCoercion(SqlCallBinding binding) {
    return false;
  }

  @Override
  public boolean builtinFunctionCoercion(
      SqlCallBinding binding,
      List<RelDataType> operandTypes,
      List<SqlTypeFamily> expectedFamilies) {
    return false;
  }

  @Override
  public boolean userDefinedFunctionCoercion(
      SqlValidatorScope scope, SqlCall call, SqlFunction function) {
    return false;
  }

  @Override
  public boolean querySourceCoercion(
      SqlValidatorScope scope,
      RelDataType sourceRowType,
      RelDataType targetRowType,
      SqlNode query) {
    return false;
  }
}
