package dev.quiver.sql;

import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Flink SQL's {@code CUMULATE(TABLE data, DESCRIPTOR(timecol), step, size [, offset])}, which
 * Calcite does not have: windows of {@code size} whose ends grow by {@code step} from a common
 * start, each row in every window of its cumulation that ends after it. Validated as Calcite
 * validates HOP (a table, one TIMESTAMP column in the descriptor, day-time interval literals);
 * planned by {@link WindowTableFunctions}.
 */
final class CumulateTableFunction extends SqlWindowTableFunction {
  static final CumulateTableFunction INSTANCE = new CumulateTableFunction();

  private CumulateTableFunction() {
    super("CUMULATE", new Operands());
  }

  private static final class Operands implements SqlOperandMetadata {
    private static final List<String> NAMES =
        List.of(PARAM_DATA, PARAM_TIMECOL, "STEP", PARAM_SIZE, PARAM_OFFSET);

    @Override
    public List<RelDataType> paramTypes(RelDataTypeFactory types) {
      RelDataType any = types.createSqlType(SqlTypeName.ANY);
      return List.of(any, any, any, any, any);
    }

    @Override
    public List<String> paramNames() {
      return NAMES;
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return SqlOperandCountRanges.between(4, 5);
    }

    @Override
    public boolean isOptional(int i) {
      return i == 4;
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
      boolean valid = timeDescriptor(binding) && intervals(binding);
      if (!valid && throwOnFailure) {
        throw binding.newValidationSignatureError();
      }
      return valid;
    }

    // DESCRIPTOR(one column) naming a TIMESTAMP column of the table argument.
    private static boolean timeDescriptor(SqlCallBinding binding) {
      SqlNode descriptor = binding.operand(1);
      if (descriptor.getKind() != SqlKind.DESCRIPTOR
          || ((SqlCall) descriptor).operandCount() != 1) {
        return false;
      }
      String column = ((SqlCall) descriptor).operand(0).toString();
      RelDataType table = binding.getValidator().getValidatedNodeType(binding.operand(0));
      for (var field : table.getFieldList()) {
        if (binding.getValidator().getCatalogReader().nameMatcher().matches(field.getName(), column)
            && SqlTypeUtil.isTimestamp(field.getType())) {
          return true;
        }
      }
      return false;
    }

    private static boolean intervals(SqlCallBinding binding) {
      for (int i = 2; i < binding.getOperandCount(); i++) {
        RelDataType type = binding.getOperandType(i);
        if (!SqlTypeUtil.isInterval(type)
            || type.getSqlTypeName().getFamily() != SqlTypeFamily.INTERVAL_DAY_TIME) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
      return opName
          + "(TABLE table_name, DESCRIPTOR(timecol), step interval, size interval[, offset"
          + " interval])";
    }
  }
}
