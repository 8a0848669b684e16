package dev.quiver.formats;

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
 * <p>Message layout (field numbers from Substrait's {@code extended_expression.proto}, {@code
 * algebra.proto}, {@code type.proto}): extension URIs (1), function declarations (2), one
 * expression reference (3) holding {@code and(and(cmp(field, literal), ...), ...)}, and the base
 * schema (4) that field references index into, which mirrors the dataset schema.
 */
public final class SubstraitFilter {
  private static final String COMPARISON =
      "https://github.com/substrait-io/substrait/blob/main/extensions/functions_comparison.yaml";
  private static final String BOOLEAN =
      "https://github.com/substrait-io/substrait/blob/main/extensions/functions_boolean.yaml";
  private static final int NULLABLE = 1;

  private SubstraitFilter() {}

  /**
   * The filter for the conjuncts of {@code predicate} that Arrow can evaluate on a dataset of
   * {@code schema}, as a direct buffer for {@code ScanOptions}; empty if there are none.
   */
  public static Optional<ByteBuffer> encode(ScanPredicate predicate, Schema schema) {
    Map<String, Integer> functions = new LinkedHashMap<>(); // name -> anchor
    List<ProtoWriter> comparisons = new ArrayList<>();
    int maxField = -1;
    for (ColumnPredicate conjunct : predicate.conjuncts()) {
      int index = indexOf(schema, conjunct.column());
      if (index < 0) {
        continue;
      }
      Optional<ProtoWriter> literal = literal(schema.getFields().get(index).getType(), conjunct);
      if (literal.isEmpty()) {
        continue;
      }
      int anchor =
          functions.computeIfAbsent(conjunct.op().substraitName(), n -> functions.size() + 1);
      comparisons.add(call(anchor, List.of(fieldReference(index), literal.get())));
      maxField = Math.max(maxField, index);
    }
    if (comparisons.isEmpty()) {
      return Optional.empty();
    }
    ProtoWriter condition = comparisons.get(0);
    if (comparisons.size() > 1) {
      int and = functions.size() + 1;
      functions.put("and", and);
      // Arrow's and_kleene kernel takes exactly two arguments: fold into and(and(a, b), c)...
      for (int i = 1; i < comparisons.size(); i++) {
        condition = call(and, List.of(condition, comparisons.get(i)));
      }
    }
    ProtoWriter message =
        new ProtoWriter()
            .message(1, new ProtoWriter().varint(1, 1).string(2, COMPARISON))
            .message(1, new ProtoWriter().varint(1, 2).string(2, BOOLEAN));
    for (Map.Entry<String, Integer> function : functions.entrySet()) {
      int uri = function.getKey().equals("and") ? 2 : 1;
      message.message(
          2,
          new ProtoWriter()
              .message(
                  3,
                  new ProtoWriter()
                      .varint(1, uri)
                      .varint(2, function.getValue())
                      .string(3, function.getKey())));
    }
    message.message(3, new ProtoWriter().message(1, condition).string(3, "quiver_scan_filter"));
    message.message(4, baseSchema(schema, maxField));
    byte[] bytes = message.toByteArray();
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

  // Expression{scalar_function{function_reference, arguments[{value}], output_type bool}}
  private static ProtoWriter call(int anchor, List<ProtoWriter> arguments) {
    ProtoWriter function = new ProtoWriter().varint(1, anchor);
    for (ProtoWriter argument : arguments) {
      function.message(4, new ProtoWriter().message(3, argument));
    }
    function.message(3, new ProtoWriter().message(1, new ProtoWriter().varint(2, NULLABLE)));
    return new ProtoWriter().message(3, function);
  }

  // Expression{selection{direct_reference{struct_field{field}}, root_reference{}}}
  private static ProtoWriter fieldReference(int index) {
    ProtoWriter structField = new ProtoWriter().varint(1, index);
    ProtoWriter segment = new ProtoWriter().message(2, structField);
    return new ProtoWriter()
        .message(2, new ProtoWriter().message(1, segment).message(4, new ProtoWriter()));
  }

  /** Expression{literal{...}} of the column's exact type, or empty if it does not fit. */
  private static Optional<ProtoWriter> literal(ArrowType type, ColumnPredicate conjunct) {
    Object value = conjunct.literal();
    ProtoWriter literal = new ProtoWriter();
    if (type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      Long v = integral(value);
      int bits = integer.getBitWidth();
      if (v == null || (bits < 64 && (v < -(1L << (bits - 1)) || v >= (1L << (bits - 1))))) {
        return Optional.empty();
      }
      int field = bits == 8 ? 2 : bits == 16 ? 3 : bits == 32 ? 5 : 7;
      literal.varint(field, v);
    } else if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
      BigInteger unscaled = unscaled(value, decimal.getScale());
      if (unscaled == null || unscaled.abs().toString().length() > decimal.getPrecision()) {
        return Optional.empty();
      }
      literal.message(
          24,
          new ProtoWriter()
              .bytes(1, littleEndian16(unscaled))
              .varint(2, decimal.getPrecision())
              .varint(3, decimal.getScale()));
    } else if (type instanceof ArrowType.Date) {
      Long days = value instanceof LocalDate date ? (Long) date.toEpochDay() : integral(value);
      if (days == null || ((ArrowType.Date) type).getUnit() != DateUnit.DAY) {
        return Optional.empty();
      }
      literal.varint(16, days);
    } else if (type instanceof ArrowType.Utf8 && value instanceof String string) {
      literal.string(12, string);
    } else if (type instanceof ArrowType.Bool && value instanceof Boolean bool) {
      literal.varint(1, bool ? 1 : 0);
    } else {
      return Optional.empty(); // floating point, timestamps, mismatched literals
    }
    return Optional.of(new ProtoWriter().message(1, literal));
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

  // NamedStruct{names, struct{types, nullability REQUIRED}} over fields 0..maxField: the filter
  // only references those, by index, so columns after them need not be described.
  private static ProtoWriter baseSchema(Schema schema, int maxField) {
    ProtoWriter struct = new ProtoWriter();
    ProtoWriter named = new ProtoWriter();
    for (int i = 0; i <= maxField; i++) {
      Field field = schema.getFields().get(i);
      named.string(1, field.getName());
      struct.message(1, type(field.getType()));
    }
    struct.varint(3, 2);
    return named.message(2, struct);
  }

  private static ProtoWriter type(ArrowType type) {
    ProtoWriter nullable = new ProtoWriter().varint(2, NULLABLE);
    if (type instanceof ArrowType.Int integer) {
      int bits = integer.getBitWidth();
      return new ProtoWriter()
          .message(bits == 8 ? 2 : bits == 16 ? 3 : bits == 32 ? 5 : 7, nullable);
    }
    if (type instanceof ArrowType.FloatingPoint fp) {
      return new ProtoWriter()
          .message(fp.getPrecision() == FloatingPointPrecision.SINGLE ? 10 : 11, nullable);
    }
    if (type instanceof ArrowType.Decimal decimal) {
      return new ProtoWriter()
          .message(
              24,
              new ProtoWriter()
                  .varint(1, decimal.getScale())
                  .varint(2, decimal.getPrecision())
                  .varint(4, NULLABLE));
    }
    if (type instanceof ArrowType.Utf8) {
      return new ProtoWriter().message(12, nullable);
    }
    if (type instanceof ArrowType.Bool) {
      return new ProtoWriter().message(1, nullable);
    }
    if (type instanceof ArrowType.Date) {
      return new ProtoWriter().message(16, nullable);
    }
    // Never referenced by the filter (see literal()); binary only keeps the indexes aligned.
    return new ProtoWriter().message(13, nullable);
  }
}
