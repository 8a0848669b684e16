package dev.quiver.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite's view of the SUM and AVG result types, made Quiver's ({@link
 * dev.quiver.plan.aggregate.AggregateCall}, {@link dev.quiver.plan.window.WindowCall}): SUM of
 * integers BIGINT, of DECIMAL(p,s) DECIMAL(38,s), of floats DOUBLE; AVG of integers and floats
 * DOUBLE, of DECIMAL(p,s) DECIMAL(38, max(s,6)). Calcite's defaults (the argument's type) disagree
 * and reach the plan wherever Calcite derives a type from them, e.g. a UNION's column type: AVG of
 * an integer would come back from a UNION ALL as an INTEGER.
 *
 * <p>Calcite caps a DECIMAL at its type system's 19 digits, so to Calcite these decimals are
 * DECIMAL(19, s) (raising the cap changes Calcite's types of decimal arithmetic, which a UNION then
 * casts to). Calcite types STDDEV and VARIANCE with {@link #avg} as well.
 */
final class AggregateTypes {
  private AggregateTypes() {}

  static RelDataType sum(RelDataTypeFactory factory, RelDataType argument) {
    RelDataType type;
    if (SqlTypeUtil.isDecimal(argument)) {
      type = factory.createSqlType(SqlTypeName.DECIMAL, 38, argument.getScale());
    } else if (SqlTypeUtil.isExactNumeric(argument)) {
      type = factory.createSqlType(SqlTypeName.BIGINT);
    } else if (SqlTypeUtil.isApproximateNumeric(argument)) {
      type = factory.createSqlType(SqlTypeName.DOUBLE);
    } else {
      return argument;
    }
    return factory.createTypeWithNullability(type, argument.isNullable());
  }

  static RelDataType avg(RelDataTypeFactory factory, RelDataType argument) {
    RelDataType type;
    if (SqlTypeUtil.isDecimal(argument)) {
      type = factory.createSqlType(SqlTypeName.DECIMAL, 38, Math.max(argument.getScale(), 6));
    } else if (SqlTypeUtil.isNumeric(argument)) {
      type = factory.createSqlType(SqlTypeName.DOUBLE);
    } else {
      return argument;
    }
    return factory.createTypeWithNullability(type, argument.isNullable());
  }
}
