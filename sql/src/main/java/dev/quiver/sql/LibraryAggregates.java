package dev.quiver.sql;

import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlBasicAggFunction;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * DuckDB's holistic aggregates that Calcite does not know: {@code MEDIAN(x)}, {@code
 * QUANTILE_CONT(x, f)} and {@code QUANTILE_DISC(x, f)}, the same as {@code PERCENTILE_CONT(0.5)},
 * {@code PERCENTILE_CONT(f)} and {@code PERCENTILE_DISC(f)} {@code WITHIN GROUP (ORDER BY x)}.
 * {@link RelTranslator} recognises them by name.
 */
final class LibraryAggregates {
  private LibraryAggregates() {}

  /** MEDIAN(x): a DOUBLE, NULL without values. */
  static final SqlAggFunction MEDIAN =
      SqlBasicAggFunction.create(
          "MEDIAN",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE),
          OperandTypes.NUMERIC);

  /** QUANTILE_CONT(x, f): a DOUBLE. */
  static final SqlAggFunction QUANTILE_CONT =
      SqlBasicAggFunction.create(
          "QUANTILE_CONT",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE),
          OperandTypes.NUMERIC_NUMERIC);

  /** QUANTILE_DISC(x, f): the type of x. */
  static final SqlAggFunction QUANTILE_DISC =
      SqlBasicAggFunction.create(
          "QUANTILE_DISC",
          SqlKind.OTHER_FUNCTION,
          ReturnTypes.ARG0_FORCE_NULLABLE,
          OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.NUMERIC));
}
