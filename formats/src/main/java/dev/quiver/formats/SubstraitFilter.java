package dev.quiver.formats;

import io.substrait.expression.Expression;
import io.substrait.expression.ExpressionCreator;
import io.substrait.expression.FieldReference;
import io.substrait.extendedexpression.ExtendedExpression;
import io.substrait.extendedexpression.ExtendedExpressionProtoConverter;
import io.substrait.extension.DefaultExtensionCatalog;
import io.substrait.extension.SimpleExtension;
import io.substrait.type.NamedStruct;
import io.substrait.type.Type;
import io.substrait.type.TypeCreator;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Encodes a {@link ScanPredicate} as a Substrait {@code ExtendedExpression}, the filter format of
 * Arrow's dataset scanner. Given a filter, Arrow's Parquet reader skips row groups whose statistics
 * rule it out, and drops non-matching rows of the rest (harmless: Quiver's filter operator applies
 * the same predicate again).
 *
 * <p>Conjuncts Arrow could evaluate differently from Quiver are left out rather than risked:
 * floating-point columns, literals that do not fit the column type exactly (e.g. {@code 1.005}
 * against DECIMAL(15,2)), and columns of other types.
 *
 * <p>The expression is built with the Substrait project's Java library ({@code io.substrait:core}):
 * {@code and(and(cmp(field, literal), ...), ...)} over a base schema that mirrors the dataset
 * schema, with the comparison and boolean functions of Substrait's standard extensions, which Arrow
 * maps to its compute functions by name.
 */
public final class SubstraitFilter {
  private static final TypeCreator NULLABLE = TypeCreator.NULLABLE;
  private static final TypeCreator REQUIRED = TypeCreator.REQUIRED;

  /** The functions the filter calls, declared by Substrait's YAML extensions (read once). */
  private static final class Functions {
    static final Map<ColumnPredicate.Op, SimpleExtension.ScalarFunctionVariant> COMPARISONS =
        new EnumMap<>(ColumnPredicate.Op.class);
    static final SimpleExtension.ScalarFunctionVariant AND;

    static {
      SimpleExtension.ExtensionCollection extensions =
          SimpleExtension.load(
              List.of(
                  DefaultExtensionCatalog.FUNCTIONS_COMPARISON,
                  DefaultExtensionCatalog.FUNCTIONS_BOOLEAN));
      for (ColumnPredicate.Op op : ColumnPredicate.Op.values()) {
        COMPARISONS.put(
            op,
            extensions.getScalarFunction(
                SimpleExtension.FunctionAnchor.of(
                    DefaultExtensionCatalog.FUNCTIONS_COMPARISON,
                    op.substraitName() + ":any_any")));
      }
      AND =
          extensions.getScalarFunction(
              SimpleExtension.FunctionAnchor.of(
                  DefaultExtensionCatalog.FUNCTIONS_BOOLEAN, "and:bool"));
    }
  }

  private SubstraitFilter() {}

  /**
   * The filter for the conjuncts of {@code predicate} that Arrow can evaluate on a dataset of
   * {@code schema}, as a direct buffer for {@code ScanOptions}; empty if there are none.
   */
  public static Optional<ByteBuffer> encode(ScanPredicate predicate, Schema schema) {
    List<Expression> comparisons = new ArrayList<>();
    int maxField = -1;
    for (ColumnPredicate conjunct : predicate.conjuncts()) {
      int index = indexOf(schema, conjunct.column());
      if (index < 0) {
        continue;
      }
      ArrowType arrowType = schema.getFields().get(index).getType();
      Optional<Expression.Literal> literal = literal(arrowType, conjunct);
      if (literal.isEmpty()) {
        continue;
      }
      FieldReference column = FieldReference.newRootStructReference(index, type(arrowType));
      comparisons.add(
          ExpressionCreator.scalarFunction(
              Functions.COMPARISONS.get(conjunct.op()), NULLABLE.BOOLEAN, column, literal.get()));
      maxField = Math.max(maxField, index);
    }
    if (comparisons.isEmpty()) {
      return Optional.empty();
    }
    Expression condition = comparisons.get(0);
    // Arrow's and_kleene kernel takes exactly two arguments: fold into and(and(a, b), c)...
    for (int i = 1; i < comparisons.size(); i++) {
      condition =
          ExpressionCreator.scalarFunction(
              Functions.AND, NULLABLE.BOOLEAN, condition, comparisons.get(i));
    }
    ExtendedExpression expression =
        ExtendedExpression.builder()
            .addReferredExpressions(
                ExtendedExpression.ExpressionReference.builder()
                    .expression(condition)
                    .addOutputNames("quiver_scan_filter")
                    .build())
            .baseSchema(baseSchema(schema, maxField))
            .build();
    byte[] bytes = new ExtendedExpressionProtoConverter().toProto(expression).toByteArray();
    ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length); // JNI reads direct buffers only
    buffer.put(bytes).flip();
    return Optional.of(buffer);
  }

  private static int indexOf(Schema schema, String column) {
    List<Field> fields = schema.getFields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equals(column)) {
        return i;
      }
    }
    return -1;
  }

  /** A literal of the column's exact type, or empty if it does not fit. */
  private static Optional<Expression.Literal> literal(ArrowType type, ColumnPredicate conjunct) {
    Object value = conjunct.literal();
    if (type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      Long v = integral(value);
      int bits = integer.getBitWidth();
      if (v == null || (bits < 64 && (v < -(1L << (bits - 1)) || v >= (1L << (bits - 1))))) {
        return Optional.empty();
      }
      return Optional.of(
          switch (bits) {
            case 8 -> ExpressionCreator.i8(false, v.intValue());
            case 16 -> ExpressionCreator.i16(false, v.intValue());
            case 32 -> ExpressionCreator.i32(false, v.intValue());
            default -> ExpressionCreator.i64(false, v);
          });
    } else if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
      BigInteger unscaled = unscaled(value, decimal.getScale());
      if (unscaled == null || unscaled.abs().toString().length() > decimal.getPrecision()) {
        return Optional.empty();
      }
      return Optional.of(
          ExpressionCreator.decimal(
              false,
              new BigDecimal(unscaled, decimal.getScale()),
              decimal.getPrecision(),
              decimal.getScale()));
    } else if (type instanceof ArrowType.Date date) {
      Long days = value instanceof LocalDate d ? (Long) d.toEpochDay() : integral(value);
      if (days == null || date.getUnit() != DateUnit.DAY || days != days.intValue()) {
        return Optional.empty();
      }
      return Optional.of(ExpressionCreator.date(false, days.intValue()));
    } else if (type instanceof ArrowType.Utf8 && value instanceof String string) {
      return Optional.of(ExpressionCreator.string(false, string));
    } else if (type instanceof ArrowType.Bool && value instanceof Boolean bool) {
      return Optional.of(ExpressionCreator.bool(false, bool));
    }
    return Optional.empty(); // floating point, timestamps, mismatched literals
  }

  private static Long integral(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal decimal) {
      try {
        return decimal.longValueExact();
      } catch (ArithmeticException e) {
        return null;
      }
    }
    return null;
  }

  private static BigInteger unscaled(Object value, int scale) {
    BigDecimal decimal =
        value instanceof BigDecimal d
            ? d
            : value instanceof Integer || value instanceof Long
                ? BigDecimal.valueOf(((Number) value).longValue())
                : null;
    if (decimal == null) {
      return null;
    }
    try {
      return decimal.setScale(scale).unscaledValue(); // exact, or ArithmeticException
    } catch (ArithmeticException e) {
      return null;
    }
  }

  // The fields 0..maxField, nullable, in a required struct: the filter only references those, by
  // index, so columns after them need not be described.
  private static NamedStruct baseSchema(Schema schema, int maxField) {
    List<String> names = new ArrayList<>();
    List<Type> types = new ArrayList<>();
    for (int i = 0; i <= maxField; i++) {
      Field field = schema.getFields().get(i);
      names.add(field.getName());
      types.add(type(field.getType()));
    }
    return NamedStruct.of(names, REQUIRED.struct(types));
  }

  private static Type type(ArrowType type) {
    if (type instanceof ArrowType.Int integer) {
      return switch (integer.getBitWidth()) {
        case 8 -> NULLABLE.I8;
        case 16 -> NULLABLE.I16;
        case 32 -> NULLABLE.I32;
        default -> NULLABLE.I64;
      };
    }
    if (type instanceof ArrowType.FloatingPoint fp) {
      return fp.getPrecision() == FloatingPointPrecision.SINGLE ? NULLABLE.FP32 : NULLABLE.FP64;
    }
    if (type instanceof ArrowType.Decimal decimal) {
      return NULLABLE.decimal(decimal.getPrecision(), decimal.getScale());
    }
    if (type instanceof ArrowType.Utf8) {
      return NULLABLE.STRING;
    }
    if (type instanceof ArrowType.Bool) {
      return NULLABLE.BOOLEAN;
    }
    if (type instanceof ArrowType.Date) {
      return NULLABLE.DATE;
    }
    // Never referenced by the filter (see literal()); binary only keeps the indexes aligned.
    return NULLABLE.BINARY;
  }
}
