package dev.quiver.formats;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Maps the Arrow types file readers produce to the types Quiver computes with.
 *
 * <table>
 *   <caption>File type to Quiver type</caption>
 *   <tr><th>read as</th><th>Quiver type</th></tr>
 *   <tr><td>utf8, large_utf8, dictionary of strings, null (an all-empty CSV column)</td>
 *       <td>utf8</td></tr>
 *   <tr><td>int8, int16, int32, int64 (uint8/16 widen to int32, uint32 to int64)</td>
 *       <td>the same</td></tr>
 *   <tr><td>float32, float64, decimal128(p,s), bool</td><td>the same</td></tr>
 *   <tr><td>date32, date64</td><td>date32</td></tr>
 *   <tr><td>timestamp of any unit and time zone</td><td>timestamp(µs) without zone (UTC
 *       values)</td></tr>
 * </table>
 *
 * <p>Arrow's scanner casts to these types while reading (the dataset is opened with the mapped
 * schema), so batches never carry large or dictionary-encoded strings. Other types (binary, lists,
 * structs, times, uint64, decimal256) have no mapping: such a column may exist in a file, but
 * reading it fails.
 */
public final class FileTypes {
  private FileTypes() {}

  /** The Quiver type of a field read from a file, or empty if Quiver has none. */
  static Optional<ArrowType> quiverType(Field field) {
    // A dictionary-encoded field's type is its value type; the index type is in the encoding.
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Utf8
        || type instanceof ArrowType.LargeUtf8
        || type instanceof ArrowType.Null) {
      return Optional.of(ArrowType.Utf8.INSTANCE);
    }
    if (type instanceof ArrowType.Int integer) {
      if (integer.getIsSigned()) {
        return Optional.of(type);
      }
      return switch (integer.getBitWidth()) {
        case 8, 16 -> Optional.of(new ArrowType.Int(32, true));
        case 32 -> Optional.of(new ArrowType.Int(64, true));
        default -> Optional.empty();
      };
    }
    if (type instanceof ArrowType.FloatingPoint || type instanceof ArrowType.Bool) {
      return Optional.of(type);
    }
    if (type instanceof ArrowType.Decimal decimal) {
      return decimal.getBitWidth() == 128 ? Optional.of(type) : Optional.empty();
    }
    if (type instanceof ArrowType.Date) {
      return Optional.of(new ArrowType.Date(DateUnit.DAY));
    }
    if (type instanceof ArrowType.Timestamp) {
      return Optional.of(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
    }
    return Optional.empty();
  }

  /**
   * {@code schema} with every field mapped to its Quiver type and without dictionary encodings.
   * Fields without a Quiver type are kept as they are, so that the rest of the file can be read.
   */
  public static Schema normalize(Schema schema) {
    List<Field> fields = new ArrayList<>(schema.getFields().size());
    for (Field field : schema.getFields()) {
      fields.add(normalize(field));
    }
    return new Schema(fields);
  }

  static Field normalize(Field field) {
    Optional<ArrowType> type = quiverType(field);
    if (type.isEmpty()) {
      return field;
    }
    return new Field(
        field.getName(), new FieldType(field.isNullable(), type.get(), null, null), null);
  }

  /** Whether Quiver can compute with {@code field}'s type as it is (after normalization). */
  public static boolean supported(Field field) {
    return field.getDictionary() == null
        && quiverType(field).map(t -> t.equals(field.getType())).orElse(false);
  }
}
