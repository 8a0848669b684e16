package dev.quiver.sql;

import dev.quiver.plan.type.SqlType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Maps Quiver's {@link SqlType} to Calcite types and back. Kept in one place so that the catalog
 * and the expression translator cannot disagree about, say, DECIMAL precision.
 */
final class TypeMapping {
  private TypeMapping() {}

  static RelDataType toCalcite(RelDataTypeFactory factory, SqlType type, boolean nullable) {
    RelDataType base =
        switch (type.kind()) {
          case DECIMAL ->
              factory.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
          case VARCHAR -> factory.createSqlType(SqlTypeName.VARCHAR);
          default -> factory.createSqlType(SqlTypeName.valueOf(type.kind().name()));
        };
    return factory.createTypeWithNullability(base, nullable);
  }

  /** The Quiver type of a Calcite type; {@code what} names the expression for the error. */
  static SqlType fromCalcite(RelDataType type, String what) {
    SqlTypeName name = type.getSqlTypeName();
    switch (name) {
      case BOOLEAN:
        return SqlType.BOOLEAN;
      case TINYINT:
        return SqlType.TINYINT;
      case SMALLINT:
        return SqlType.SMALLINT;
      case INTEGER:
        return SqlType.INTEGER;
      case BIGINT:
        return SqlType.BIGINT;
      case REAL:
      case FLOAT:
        return SqlType.REAL;
      case DOUBLE:
        return SqlType.DOUBLE;
      case DECIMAL:
        return SqlType.decimal(type.getPrecision(), type.getScale());
      case CHAR:
      case VARCHAR:
        return SqlType.VARCHAR;
      case DATE:
        return SqlType.DATE;
      case TIMESTAMP:
        return SqlType.TIMESTAMP;
      default:
        if (name.getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_YEAR_MONTH) {
          return SqlType.INTERVAL_YEAR_MONTH;
        }
        if (name.getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME) {
          return SqlType.INTERVAL_DAY_TIME;
        }
        if (name == SqlTypeName.NULL) {
          // The validator lets an untyped NULL through (see NoImplicitCasts); no column is
          // NULL-typed.
          throw Errors.unsupported("an untyped NULL (" + what + "); write CAST(NULL AS <type>)");
        }
        throw Errors.unsupported("type " + type.getFullTypeString() + " of " + what);
    }
  }
}
