package dev.quiver.formats;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Decodes Parquet schema elements, column chunks and their statistics (the Thrift structs of {@code
 * parquet.thrift}) into {@link ColumnStats}.
 *
 * <p>Only statistics whose order Quiver knows are kept: signed integers, decimals, dates,
 * timestamps, booleans and UTF-8 strings. Floating point (NaN), unsigned integers and INT96 are
 * dropped, so a predicate on them never skips a row group. The deprecated {@code min}/{@code max}
 * fields are used only for physically signed types, where old writers got them right.
 */
final class ParquetStats {
  // Physical types.
  private static final int BOOLEAN = 0;
  private static final int INT32 = 1;
  private static final int INT64 = 2;
  private static final int BYTE_ARRAY = 6;
  private static final int FIXED_LEN_BYTE_ARRAY = 7;

  /** What a leaf's logical type means for its statistics. */
  enum Kind {
    NONE,
    STRING,
    DECIMAL,
    DATE,
    TIMESTAMP,
    UNSIGNED,
    OTHER
  }

  /** A schema element; {@code timeUnit} is 1 millis, 2 micros, 3 nanos for timestamps. */
  record SchemaElement(
      String name, int children, int physicalType, Kind kind, int scale, int timeUnit) {}

  /** A leaf column: its dotted path and schema element. */
  record Column(String name, SchemaElement element) {}

  /** What Quiver keeps of a column chunk; {@code offset} is where its first page starts. */
  record Chunk(long offset, long compressedBytes, ColumnStats stats) {}

  private ParquetStats() {}

  static SchemaElement readSchemaElement(ThriftCompactReader thrift) {
    var e =
        new Object() {
          String name = "";
          int children;
          int physical = -1;
          int converted = -1;
          int scale;
          Kind logical;
          int timeUnit;
        };
    thrift.readStruct(
        (id, type) -> {
          switch (id) {
            case 1 -> e.physical = thrift.readI32();
            case 4 -> e.name = new String(thrift.readBinary(), StandardCharsets.UTF_8);
            case 5 -> e.children = thrift.readI32();
            case 6 -> e.converted = thrift.readI32();
            case 7 -> e.scale = thrift.readI32();
            case 10 -> {
              int[] unit = {0};
              int[] scale = {-1};
              e.logical = readLogicalType(thrift, unit, scale);
              e.timeUnit = unit[0];
              if (scale[0] >= 0) {
                e.scale = scale[0];
              }
            }
            default -> thrift.skip(type);
          }
        });
    Kind kind = e.logical != null ? e.logical : fromConverted(e.converted);
    int unit = e.logical != null ? e.timeUnit : e.converted == 9 ? 1 : e.converted == 10 ? 2 : 0;
    return new SchemaElement(e.name, e.children, e.physical, kind, e.scale, unit);
  }

  // LogicalType is a Thrift union: the id of its one field says which logical type it is.
  private static Kind readLogicalType(ThriftCompactReader thrift, int[] unit, int[] scale) {
    Kind[] kind = {Kind.OTHER};
    thrift.readStruct(
        (id, type) -> {
          switch (id) {
            case 1, 4, 12 -> {
              kind[0] = Kind.STRING; // STRING, ENUM, JSON
              thrift.skip(type);
            }
            case 5 -> {
              kind[0] = Kind.DECIMAL;
              thrift.readStruct(
                  (fid, ftype) -> {
                    if (fid == 1) {
                      scale[0] = thrift.readI32();
                    } else {
                      thrift.skip(ftype);
                    }
                  });
            }
            case 6 -> {
              kind[0] = Kind.DATE;
              thrift.skip(type);
            }
            case 8 -> {
              kind[0] = Kind.TIMESTAMP;
              thrift.readStruct(
                  (fid, ftype) -> {
                    if (fid == 2) {
                      thrift.readStruct(
                          (uid, utype) -> {
                            unit[0] = uid;
                            thrift.skip(utype);
                          });
                    } else {
                      thrift.skip(ftype);
                    }
                  });
            }
            case 10 -> {
              boolean[] signed = {true};
              thrift.readStruct(
                  (fid, ftype) -> {
                    if (fid == 2) {
                      signed[0] = thrift.readBoolField();
                    } else {
                      thrift.skip(ftype);
                    }
                  });
              kind[0] = signed[0] ? Kind.NONE : Kind.UNSIGNED;
            }
            default -> thrift.skip(type);
          }
        });
    return kind[0];
  }

  private static Kind fromConverted(int converted) {
    return switch (converted) {
      case -1 -> Kind.NONE;
      case 0, 4, 19 -> Kind.STRING; // UTF8, ENUM, JSON
      case 5 -> Kind.DECIMAL;
      case 6 -> Kind.DATE;
      case 9, 10 -> Kind.TIMESTAMP;
      case 11, 12, 13, 14 -> Kind.UNSIGNED;
      case 15, 16, 17, 18 -> Kind.NONE; // INT_8 .. INT_64
      default -> Kind.OTHER;
    };
  }

  static Chunk readColumnChunk(ThriftCompactReader thrift, Column leaf) {
    Chunk[] chunk = {new Chunk(-1, 0, null)};
    thrift.readStruct(
        (id, type) -> {
          if (id == 3 && type == ThriftCompactReader.STRUCT) {
            chunk[0] = readColumnMetaData(thrift, leaf);
          } else {
            thrift.skip(type);
          }
        });
    return chunk[0];
  }

  private static Chunk readColumnMetaData(ThriftCompactReader thrift, Column leaf) {
    long[] compressed = {0};
    long[] offset = {Long.MAX_VALUE};
    ColumnStats[] stats = {null};
    thrift.readStruct(
        (id, type) -> {
          if ((id == 9 || id == 11) && type == ThriftCompactReader.I64) {
            long pageOffset = thrift.readI64(); // data or dictionary page
            offset[0] = pageOffset > 0 ? Math.min(offset[0], pageOffset) : offset[0];
          } else if (id == 7 && type == ThriftCompactReader.I64) {
            compressed[0] = thrift.readI64();
          } else if (id == 12 && type == ThriftCompactReader.STRUCT && leaf != null) {
            stats[0] = readStatistics(thrift, leaf.element());
          } else {
            thrift.skip(type);
          }
        });
    return new Chunk(offset[0] == Long.MAX_VALUE ? -1 : offset[0], compressed[0], stats[0]);
  }

  private static ColumnStats readStatistics(ThriftCompactReader thrift, SchemaElement element) {
    byte[][] values = new byte[4][]; // legacy max, legacy min, max_value, min_value
    long[] nulls = {-1};
    thrift.readStruct(
        (id, type) -> {
          switch (id) {
            case 1 -> values[0] = thrift.readBinary();
            case 2 -> values[1] = thrift.readBinary();
            case 3 -> nulls[0] = thrift.readI64();
            case 5 -> values[2] = thrift.readBinary();
            case 6 -> values[3] = thrift.readBinary();
            default -> thrift.skip(type);
          }
        });
    boolean legacyOk =
        element.physicalType() == BOOLEAN
            || ((element.physicalType() == INT32 || element.physicalType() == INT64)
                && element.kind() != Kind.UNSIGNED);
    byte[] max = values[2] != null ? values[2] : legacyOk ? values[0] : null;
    byte[] min = values[3] != null ? values[3] : legacyOk ? values[1] : null;
    return new ColumnStats(decode(min, element), decode(max, element), nulls[0]);
  }

  /** The statistic {@code bytes} as a comparable value, or null if Quiver cannot order it. */
  static Object decode(byte[] bytes, SchemaElement element) {
    if (bytes == null) {
      return null;
    }
    Kind kind = element.kind();
    ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    switch (element.physicalType()) {
      case BOOLEAN:
        return bytes.length == 1 && kind == Kind.NONE ? bytes[0] != 0 : null;
      case INT32:
        if (bytes.length != 4) {
          return null;
        }
        int i = le.getInt(0);
        return kind == Kind.NONE || kind == Kind.DATE
            ? BigDecimal.valueOf(i)
            : kind == Kind.DECIMAL ? BigDecimal.valueOf(i, element.scale()) : null;
      case INT64:
        if (bytes.length != 8) {
          return null;
        }
        long l = le.getLong(0);
        return switch (kind) {
          case NONE -> BigDecimal.valueOf(l);
          case DECIMAL -> BigDecimal.valueOf(l, element.scale());
          case TIMESTAMP -> micros(l, element.timeUnit());
          default -> null;
        };
      case BYTE_ARRAY:
      case FIXED_LEN_BYTE_ARRAY:
        if (kind == Kind.STRING) {
          return bytes;
        }
        return kind == Kind.DECIMAL && bytes.length > 0
            ? new BigDecimal(new BigInteger(bytes), element.scale())
            : null;
      default:
        return null;
    }
  }

  // Exact, so that nanosecond bounds stay bounds after the conversion.
  private static BigDecimal micros(long value, int unit) {
    return switch (unit) {
      case 1 -> BigDecimal.valueOf(value).scaleByPowerOfTen(3);
      case 2 -> BigDecimal.valueOf(value);
      case 3 -> BigDecimal.valueOf(value, 3);
      default -> null;
    };
  }
}
