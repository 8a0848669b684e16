package dev.quiver.formats;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes files with a schema and no rows, which Arrow's dataset writer does not produce: an Arrow
 * IPC file without batches, a CSV header line, and a Parquet file with a schema and no row groups
 * (its footer written here, with the physical and logical types Arrow maps back to the same Arrow
 * types).
 */
final class EmptyFiles {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  private EmptyFiles() {}

  static void write(FileFormat format, Schema schema, Path file, BufferAllocator allocator)
      throws IOException {
    switch (format) {
      case ARROW_IPC -> {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
            FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            ArrowFileWriter writer =
                new ArrowFileWriter(
                    root, new DictionaryProvider.MapDictionaryProvider(), channel)) {
          writer.start();
          writer.end();
        }
      }
      case CSV -> {
        String header =
            schema.getFields().stream()
                .map(f -> '"' + f.getName().replace("\"", "\"\"") + '"')
                .collect(Collectors.joining(","));
        Files.writeString(file, header + "\n", StandardOpenOption.CREATE_NEW);
      }
      case PARQUET -> {
        byte[] footer = parquetFooter(schema);
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
          out.write(MAGIC);
          out.write(footer);
          out.write(
              ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.length).array());
          out.write(MAGIC);
        }
      }
    }
  }

  // FileMetaData{version, schema, num_rows = 0, row_groups = [], created_by}
  private static byte[] parquetFooter(Schema schema) {
    ThriftCompactWriter thrift = new ThriftCompactWriter().i32(1, 1);
    thrift.beginStructList(2, schema.getFields().size() + 1);
    thrift.beginListElement().string(4, "schema").i32(5, schema.getFields().size()).endStruct();
    for (Field field : schema.getFields()) {
      thrift.beginListElement();
      element(thrift, field);
      thrift.endStruct();
    }
    thrift.i64(3, 0).beginStructList(4, 0).string(6, "quiver");
    return thrift.finishStruct();
  }

  // SchemaElement{1 type, 2 type_length, 3 repetition, 4 name, 6 converted_type, 7 scale,
  // 8 precision, 10 logicalType}; ids must be written in increasing order.
  private static void element(ThriftCompactWriter thrift, Field field) {
    ArrowType type = field.getType();
    int repetition = field.isNullable() ? 1 : 0;
    if (type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      int bits = integer.getBitWidth();
      thrift.i32(1, bits == 64 ? 2 : 1).i32(3, repetition).string(4, field.getName());
      if (bits < 32) {
        thrift.beginStruct(10).beginStruct(10);
        thrift.i8(1, bits).bool(2, true); // IntType{bitWidth, isSigned}
        thrift.endStruct().endStruct();
      }
    } else if (type instanceof ArrowType.FloatingPoint fp) {
      int physical = fp.getPrecision() == FloatingPointPrecision.SINGLE ? 4 : 5;
      thrift.i32(1, physical).i32(3, repetition).string(4, field.getName());
    } else if (type instanceof ArrowType.Bool) {
      thrift.i32(1, 0).i32(3, repetition).string(4, field.getName());
    } else if (type instanceof ArrowType.Utf8) {
      thrift.i32(1, 6).i32(3, repetition).string(4, field.getName()).i32(6, 0);
      thrift.beginStruct(10).beginStruct(1).endStruct().endStruct();
    } else if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
      thrift.i32(1, 1).i32(3, repetition).string(4, field.getName()).i32(6, 6);
      thrift.beginStruct(10).beginStruct(6).endStruct().endStruct();
    } else if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
      int p = decimal.getPrecision();
      int s = decimal.getScale();
      thrift.i32(1, 7).i32(2, decimalBytes(p)).i32(3, repetition).string(4, field.getName());
      thrift.i32(6, 5).i32(7, s).i32(8, p);
      thrift.beginStruct(10).beginStruct(5).i32(1, s).i32(2, p).endStruct().endStruct();
    } else if (type instanceof ArrowType.Timestamp ts && ts.getUnit() == TimeUnit.MICROSECOND) {
      thrift.i32(1, 2).i32(3, repetition).string(4, field.getName());
      thrift.beginStruct(10).beginStruct(8).bool(1, ts.getTimezone() != null);
      thrift.beginStruct(2).beginStruct(2).endStruct().endStruct(); // unit = MICROS
      thrift.endStruct().endStruct();
    } else {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          "Cannot write column '" + field.getName() + "' of type " + type + " to Parquet");
    }
  }

  // The fewest bytes whose two's complement holds every decimal of precision p.
  private static int decimalBytes(int precision) {
    int bytes = 1;
    while (Math.pow(2, 8 * bytes - 1) < Math.pow(10, precision)) {
      bytes++;
    }
    return bytes;
  }
}
