package dev.quiver.formats;

import com.google.protobuf.ByteString;
import io.substrait.proto.Expression;
import io.substrait.proto.ExpressionReference;
import io.substrait.proto.ExtendedExpression;
import io.substrait.proto.FunctionArgument;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.SimpleExtensionDeclaration;
import io.substrait.proto.SimpleExtensionURI;
import io.substrait.proto.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * <p>The message is built with the Substrait project's generated protobuf classes ({@code
 * io.substrait.proto}, in {@code io.substrait:core}): extension URIs, one function declaration per
 * comparison used (Arrow maps them to its compute functions by name), one expression reference
 * holding {@code and(and(cmp(field, literal), ...), ...)}, and the base schema that field
 * references index into, which mirrors the dataset schema. Not the library's POJO expression model:
 * that model resolves functions through Substrait's YAML extension catalog, which cost about a
 * second on the first filter of every JVM (formats/README.md, "Libraries").
 */
public final class SubstraitFilter {
  private static final String COMPARISON =
      "https://github.com/substrait-io/substrait/blob/main/extensions/functions_comparison.yaml";
  private static final String BOOLEAN =
      "https://github.com/substrait-io/substrait/blob/main/extensions/functions_boolean.yaml";
  private static final int COMPARISON_URI = 1;
  private static final int BOOLEAN_URI = 2;
  private static final Type.Nullability NULLABLE = Type.Nullability.NULLABILITY_NULLABLE;

  private SubstraitFilter() {}

  /**
   * The filter for the conjuncts of {@code predicate} that Arrow can evaluate on a dataset of
   * {@code schema}, as a direct buffer for {@code ScanOptions}; empty if there are none.
   */
  public static Optional<ByteBuffer> encode(ScanPredicate predicate, Schema schema) {
    Map<String, Integer> functions = new LinkedHashMap<>(); // name -> anchor
    List<Expression> comparisons = new ArrayList<>();
    int maxField = -1;
    for (ColumnPredicate conjunct : predicate.conjuncts()) {
      int index = indexOf(schema, conjunct.column());
      if (index < 0) {
        continue;
      }
      Optional<Expression.Literal> literal =
          literal(schema.getFields().get(index).getType(), conjunct);
      if (literal.isEmpty()) {
        continue;
      }
      int anchor =
          functions.computeIfAbsent(conjunct.op().substraitName(), n -> functions.size() + 1);
      Expression value = Expression.newBuilder().setLiteral(literal.get()).build();
      comparisons.add(call(anchor, fieldReference(index), value));
      maxField = Math.max(maxField, index);
    }
    if (comparisons.isEmpty()) {
      return Optional.empty();
    }
    Expression condition = comparisons.get(0);
    if (comparisons.size() > 1) {
      int and = functions.size() + 1;
      functions.put("and", and);
      // Arrow's and_kleene kernel takes exactly two arguments: fold into and(and(a, b), c)...
      for (int i = 1; i < comparisons.size(); i++) {
        condition = call(and, condition, comparisons.get(i));
      }
    }
    ExtendedExpression.Builder message =
        ExtendedExpression.newBuilder()
            .addExtensionUris(uri(COMPARISON_URI, COMPARISON))
            .addExtensionUris(uri(BOOLEAN_URI, BOOLEAN));
    for (Map.Entry<String, Integer> function : functions.entrySet()) {
      message.addExtensions(
          SimpleExtensionDeclaration.newBuilder()
              .setExtensionFunction(
                  SimpleExtensionDeclaration.ExtensionFunction.newBuilder()
                      .setExtensionUriReference(
                          function.getKey().equals("and") ? BOOLEAN_URI : COMPARISON_URI)
                      .setFunctionAnchor(function.getValue())
                      .setName(function.getKey())));
    }
    message
        .addReferredExpr(
            ExpressionReference.newBuilder()
                .setExpression(condition)
                .addOutputNames("quiver_scan_filter"))
        .setBaseSchema(baseSchema(schema, maxField));
    byte[] bytes = message.build().toByteArray();
    ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length); // JNI reads direct buffers only
    buffer.put(bytes).flip();
    return Optional.of(buffer);
  }

  private static SimpleExtensionURI uri(int anchor, String uri) {
    return SimpleExtensionURI.newBuilder().setExtensionUriAnchor(anchor).setUri(uri).build();
  }

  /** {@code function(arguments...)} returning a nullable boolean. */
  private static Expression call(int anchor, Expression... arguments) {
    Expression.ScalarFunction.Builder function =
        Expression.ScalarFunction.newBuilder()
            .setFunctionReference(anchor)
            .setOutputType(
                Type.newBuilder().setBool(Type.Boolean.newBuilder().setNullability(NULLABLE)));
    for (Expression argument : arguments) {
      function.addArguments(FunctionArgument.newBuilder().setValue(argument));
    }
    return Expression.newBuilder().setScalarFunction(function).build();
  }

  /** Field {@code index} of the input row (the base schema). */
  private static Expression fieldReference(int index) {
    return Expression.newBuilder()
        .setSelection(
            Expression.FieldReference.newBuilder()
                .setDirectReference(
                    Expression.ReferenceSegment.newBuilder()
                        .setStructField(
                            Expression.ReferenceSegment.StructField.newBuilder().setField(index)))
                .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance()))
        .build();
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
    Expression.Literal.Builder literal = Expression.Literal.newBuilder();
    if (type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      Long v = integral(value);
      int bits = integer.getBitWidth();
      if (v == null || (bits < 64 && (v < -(1L << (bits - 1)) || v >= (1L << (bits - 1))))) {
        return Optional.empty();
      }
      switch (bits) {
        case 8 -> literal.setI8(v.intValue());
        case 16 -> literal.setI16(v.intValue());
        case 32 -> literal.setI32(v.intValue());
        default -> literal.setI64(v);
      }
    } else if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
      BigInteger unscaled = unscaled(value, decimal.getScale());
      if (unscaled == null || unscaled.abs().toString().length() > decimal.getPrecision()) {
        return Optional.empty();
      }
      literal.setDecimal(
          Expression.Literal.Decimal.newBuilder()
              .setValue(ByteString.copyFrom(littleEndian16(unscaled)))
              .setPrecision(decimal.getPrecision())
              .setScale(decimal.getScale()));
    } else if (type instanceof ArrowType.Date date) {
      Long days = value instanceof LocalDate d ? (Long) d.toEpochDay() : integral(value);
      if (days == null || date.getUnit() != DateUnit.DAY || days != days.intValue()) {
        return Optional.empty();
      }
      literal.setDate(days.intValue());
    } else if (type instanceof ArrowType.Utf8 && value instanceof String string) {
      literal.setString(string);
    } else if (type instanceof ArrowType.Bool && value instanceof Boolean bool) {
      literal.setBoolean(bool);
    } else {
      return Optional.empty(); // floating point, timestamps, mismatched literals
    }
    return Optional.of(literal.build());
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

  /** Substrait's decimal literal: the unscaled value as 16 little-endian two's-complement bytes. */
  private static byte[] littleEndian16(BigInteger value) {
    byte[] bigEndian = value.toByteArray();
    byte[] out = new byte[16];
    byte fill = (byte) (value.signum() < 0 ? 0xff : 0);
    for (int i = 0; i < 16; i++) {
      int source = bigEndian.length - 1 - i;
      out[i] = source >= 0 ? bigEndian[source] : fill;
    }
    return out;
  }

  // The fields 0..maxField, nullable, in a required struct: the filter only references those, by
  // index, so columns after them need not be described.
  private static NamedStruct baseSchema(Schema schema, int maxField) {
    NamedStruct.Builder named = NamedStruct.newBuilder();
    Type.Struct.Builder struct =
        Type.Struct.newBuilder().setNullability(Type.Nullability.NULLABILITY_REQUIRED);
    for (int i = 0; i <= maxField; i++) {
      Field field = schema.getFields().get(i);
      named.addNames(field.getName());
      struct.addTypes(type(field.getType()));
    }
    return named.setStruct(struct).build();
  }

  private static Type type(ArrowType type) {
    Type.Builder out = Type.newBuilder();
    if (type instanceof ArrowType.Int integer) {
      return switch (integer.getBitWidth()) {
        case 8 -> out.setI8(Type.I8.newBuilder().setNullability(NULLABLE)).build();
        case 16 -> out.setI16(Type.I16.newBuilder().setNullability(NULLABLE)).build();
        case 32 -> out.setI32(Type.I32.newBuilder().setNullability(NULLABLE)).build();
        default -> out.setI64(Type.I64.newBuilder().setNullability(NULLABLE)).build();
      };
    }
    if (type instanceof ArrowType.FloatingPoint fp) {
      return fp.getPrecision() == FloatingPointPrecision.SINGLE
          ? out.setFp32(Type.FP32.newBuilder().setNullability(NULLABLE)).build()
          : out.setFp64(Type.FP64.newBuilder().setNullability(NULLABLE)).build();
    }
    if (type instanceof ArrowType.Decimal decimal) {
      return out.setDecimal(
              Type.Decimal.newBuilder()
                  .setScale(decimal.getScale())
                  .setPrecision(decimal.getPrecision())
                  .setNullability(NULLABLE))
          .build();
    }
    if (type instanceof ArrowType.Utf8) {
      return out.setString(Type.String.newBuilder().setNullability(NULLABLE)).build();
    }
    if (type instanceof ArrowType.Bool) {
      return out.setBool(Type.Boolean.newBuilder().setNullability(NULLABLE)).build();
    }
    if (type instanceof ArrowType.Date) {
      return out.setDate(Type.Date.newBuilder().setNullability(NULLABLE)).build();
    }
    // Never referenced by the filter (see literal()); binary only keeps the indexes aligned.
    return out.setBinary(Type.Binary.newBuilder().setNullability(NULLABLE)).build();
  }
}
