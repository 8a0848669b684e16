package dev.quiver.sql;

import dev.quiver.operators.function.FunctionDefinition;
import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlNameMatcher;

/**
 * Calcite's view of Quiver's function registry: one Calcite operator per library function, made
 * from the function's own declaration. Validation and the result type ask the function ({@link
 * FunctionDefinition#resolve}) with the argument types mapped to Quiver's, so that what Calcite
 * accepts and types is exactly what the kernel runs. Looked up before Calcite's standard operators,
 * so a registry function shadows a standard function of the same name.
 */
final class LibraryFunctions implements SqlOperatorTable {
  static final LibraryFunctions INSTANCE = new LibraryFunctions();

  private final Map<String, SqlFunction> operators = new ConcurrentHashMap<>();

  private LibraryFunctions() {
    for (Map.Entry<String, FunctionDefinition> entry : FunctionRegistry.names().entrySet()) {
      operators.put(entry.getKey(), operator(entry.getKey(), entry.getValue()));
    }
  }

  /** Whether {@code name} (any case) is a library function. */
  static boolean has(String name) {
    return FunctionRegistry.lookup(name).isPresent();
  }

  /** The Calcite operator of library function {@code name} (lower case). */
  SqlFunction operator(String name) {
    SqlFunction operator = operators.get(name);
    if (operator == null) {
      throw new IllegalArgumentException("no library function " + name);
    }
    return operator;
  }

  @Override
  public void lookupOperatorOverloads(
      SqlIdentifier opName,
      SqlFunctionCategory category,
      SqlSyntax syntax,
      List<SqlOperator> operatorList,
      SqlNameMatcher nameMatcher) {
    if (!opName.isSimple() || (syntax != SqlSyntax.FUNCTION && syntax != null)) {
      return;
    }
    SqlFunction operator = operators.get(opName.getSimple().toLowerCase(Locale.ROOT));
    if (operator != null) {
      operatorList.add(operator);
    }
  }

  @Override
  public List<SqlOperator> getOperatorList() {
    return new ArrayList<>(operators.values());
  }

  private static SqlFunction operator(String name, FunctionDefinition function) {
    return new SqlFunction(
        name.toUpperCase(Locale.ROOT),
        SqlKind.OTHER_FUNCTION,
        binding -> returnType(binding, function),
        null,
        new Checker(function),
        SqlFunctionCategory.USER_DEFINED_FUNCTION);
  }

  private static RelDataType returnType(SqlOperatorBinding binding, FunctionDefinition function) {
    List<Expr> args = arguments(binding, function);
    Signature signature = function.resolve(args);
    if (signature == null) {
      throw binding.newError(
          org.apache.calcite.util.Static.RESOURCE.validatorUnknownFunction(function.usage()));
    }
    return TypeMapping.toCalcite(
        binding.getTypeFactory(), signature.result(), function.nullable(args));
  }

  /**
   * The call's arguments as Quiver sees them: a literal where the argument is a string, integer,
   * day-time interval or timestamp literal or an untyped NULL (a VARCHAR NULL), otherwise a column
   * of the argument's type.
   */
  private static List<Expr> arguments(SqlOperatorBinding binding, FunctionDefinition function) {
    List<Expr> args = new ArrayList<>();
    for (int i = 0; i < binding.getOperandCount(); i++) {
      RelDataType type = binding.getOperandType(i);
      SqlType sqlType =
          type.getSqlTypeName() == SqlTypeName.NULL
              ? SqlType.VARCHAR
              : TypeMapping.fromCalcite(type, "argument " + (i + 1) + " of " + function.name());
      Object value = literal(binding, i, sqlType);
      boolean untypedNull = type.getSqlTypeName() == SqlTypeName.NULL;
      args.add(
          value != null || untypedNull
              ? new Literal(value, sqlType)
              : new ColumnRef(i, sqlType, type.isNullable(), "$" + i));
    }
    return args;
  }

  private static Object literal(SqlOperatorBinding binding, int i, SqlType type) {
    if (!binding.isOperandLiteral(i, false) || binding.isOperandNull(i, false)) {
      return null;
    }
    if (type.kind() == SqlType.Kind.VARCHAR) {
      return binding.getOperandLiteralValue(i, String.class);
    }
    if (type.isInteger()) {
      BigDecimal value = binding.getOperandLiteralValue(i, BigDecimal.class);
      return value == null ? null : value.longValue();
    }
    if (type.kind() == SqlType.Kind.INTERVAL_DAY_TIME) {
      BigDecimal millis = binding.getOperandLiteralValue(i, BigDecimal.class);
      return millis == null ? null : java.time.Duration.ofMillis(millis.longValueExact());
    }
    if (type.kind() == SqlType.Kind.TIMESTAMP) {
      org.apache.calcite.util.TimestampString value =
          binding.getOperandLiteralValue(i, org.apache.calcite.util.TimestampString.class);
      return value == null
          ? null
          : java.time.LocalDateTime.parse(value.toString().replace(' ', 'T'));
    }
    return null;
  }

  /** Accepts exactly the argument types the function resolves. */
  private static final class Checker implements SqlOperandTypeChecker {
    private final FunctionDefinition function;

    Checker(FunctionDefinition function) {
      this.function = function;
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
      boolean accepted;
      try {
        accepted = function.resolve(arguments(binding, function)) != null;
      } catch (RuntimeException e) {
        accepted = false;
      }
      if (!accepted && throwOnFailure) {
        throw binding.newValidationSignatureError();
      }
      return accepted;
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
      return function.maxArgs() == Integer.MAX_VALUE
          ? SqlOperandCountRanges.from(function.minArgs())
          : SqlOperandCountRanges.between(function.minArgs(), function.maxArgs());
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
      return function.usage();
    }
  }
}
