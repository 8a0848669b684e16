package dev.quiver.formats;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.TimeUnit;

/**
 * Interprets Parquet schema elements, column chunks and their statistics (the Thrift structs of
 * {@code parquet.thrift}, as {@code parquet-format-structures} decodes them) as {@link
 * ColumnStats}.
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

  /** What a leaf's statistics mean: its physical type, kind, decimal scale and time unit. */
  record LeafType(int physicalType, Kind kind, int scale, int timeUnit) {}

  /** A leaf column: its dotted path and type. */
  record Column(String name, LeafType type) {}

  /** What Quiver keeps of a column chunk; {@code offset} is where its first page starts. */
  /**
   * A column chunk's first page offset, compressed size, statistics, and the offset of its
   * dictionary page when every data page of the chunk is dictionary-encoded (else -1): then the
   * dictionary holds every distinct value of the chunk.
   */
  record Chunk(long offset, long compressedBytes, ColumnStats stats, long fullDictionary) {}

  // TimeUnit of timestamps: 1 millis, 2 micros, 3 nanos (the ids of parquet.thrift's TimeUnit).
  private static final int MILLIS = 1;
  private static final int MICROS = 2;
  private static final int NANOS = 3;

  private ParquetStats() {}

  static LeafType leafType(SchemaElement element) {
    int physical = element.isSetType() ? element.getType().getValue() : -1;
    int scale = element.isSetScale() ? element.getScale() : 0;
    ConvertedType converted = element.isSetConverted_type() ? element.getConverted_type() : null;
    if (element.isSetLogicalType()) {
      LogicalType logical = element.getLogicalType();
      Kind kind = Kind.OTHER;
      int unit = 0;
      if (logical.isSetSTRING() || logical.isSetENUM() || logical.isSetJSON()) {
        kind = Kind.STRING;
      } else if (logical.isSetDECIMAL()) {
        kind = Kind.DECIMAL;
        scale = logical.getDECIMAL().getScale();
      } else if (logical.isSetDATE()) {
        kind = Kind.DATE;
      } else if (logical.isSetTIMESTAMP()) {
        kind = Kind.TIMESTAMP;
        TimeUnit timeUnit = logical.getTIMESTAMP().getUnit();
        unit =
            timeUnit.isSetMILLIS()
                ? MILLIS
                : timeUnit.isSetMICROS() ? MICROS : timeUnit.isSetNANOS() ? NANOS : 0;
      } else if (logical.isSetINTEGER()) {
        kind = logical.getINTEGER().isIsSigned() ? Kind.NONE : Kind.UNSIGNED;
      }
      return new LeafType(physical, kind, scale, unit);
    }
    int unit =
        converted == ConvertedType.TIMESTAMP_MILLIS
            ? MILLIS
            : converted == ConvertedType.TIMESTAMP_MICROS ? MICROS : 0;
    return new LeafType(physical, fromConverted(converted), scale, unit);
  }

  private static Kind fromConverted(ConvertedType converted) {
    if (converted == null) {
      return Kind.NONE;
    }
    return switch (converted) {
      case UTF8, ENUM, JSON -> Kind.STRING;
      case DECIMAL -> Kind.DECIMAL;
      case DATE -> Kind.DATE;
      case TIMESTAMP_MILLIS, TIMESTAMP_MICROS -> Kind.TIMESTAMP;
      case UINT_8, UINT_16, UINT_32, UINT_64 -> Kind.UNSIGNED;
      case INT_8, INT_16, INT_32, INT_64 -> Kind.NONE;
      default -> Kind.OTHER;
    };
  }

  static Chunk chunk(ColumnChunk chunk, Column leaf) {
    if (!chunk.isSetMeta_data()) {
      return new Chunk(-1, 0, null, -1);
    }
    ColumnMetaData metadata = chunk.getMeta_data();
    long offset = Long.MAX_VALUE;
    if (metadata.getData_page_offset() > 0) {
      offset = metadata.getData_page_offset();
    }
    if (metadata.isSetDictionary_page_offset() && metadata.getDictionary_page_offset() > 0) {
      offset = Math.min(offset, metadata.getDictionary_page_offset());
    }
    ColumnStats stats =
        leaf != null && metadata.isSetStatistics()
            ? stats(metadata.getStatistics(), leaf.type())
            : null;
    return new Chunk(
        offset == Long.MAX_VALUE ? -1 : offset,
        metadata.getTotal_compressed_size(),
        stats,
        fullDictionary(metadata));
  }

  /**
   * The dictionary page's offset when the chunk's page encoding statistics say every data page is
   * dictionary-encoded (a writer whose dictionary grew too large falls back to plain pages, and
   * then the dictionary holds only the values before the fallback); -1 when not, or not known.
   */
  private static long fullDictionary(ColumnMetaData metadata) {
    if (!metadata.isSetDictionary_page_offset()
        || metadata.getDictionary_page_offset() <= 0
        || !metadata.isSetEncoding_stats()) {
      return -1;
    }
    boolean dataPages = false;
    for (PageEncodingStats pages : metadata.getEncoding_stats()) {
      PageType type = pages.getPage_type();
      if (type == PageType.DATA_PAGE || type == PageType.DATA_PAGE_V2) {
        Encoding encoding = pages.getEncoding();
        if (pages.getCount() > 0
            && encoding != Encoding.PLAIN_DICTIONARY
            && encoding != Encoding.RLE_DICTIONARY) {
          return -1;
        }
        dataPages = true;
      }
    }
    return dataPages ? metadata.getDictionary_page_offset() : -1;
  }

  private static ColumnStats stats(Statistics statistics, LeafType type) {
    boolean legacyOk =
        type.physicalType() == BOOLEAN
            || ((type.physicalType() == INT32 || type.physicalType() == INT64)
                && type.kind() != Kind.UNSIGNED);
    byte[] max =
        statistics.isSetMax_value()
            ? statistics.getMax_value()
            : legacyOk && statistics.isSetMax() ? statistics.getMax() : null;
    byte[] min =
        statistics.isSetMin_value()
            ? statistics.getMin_value()
            : legacyOk && statistics.isSetMin() ? statistics.getMin() : null;
    long nulls = statistics.isSetNull_count() ? statistics.getNull_count() : -1;
    return new ColumnStats(decode(min, type), decode(max, type), nulls);
  }

  /** The statistic {@code bytes} as a comparable value, or null if Quiver cannot order it. */
  static Object decode(byte[] bytes, LeafType element) {
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
