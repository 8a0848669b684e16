package dev.quiver.formats;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.DateType;
import org.apache.parquet.format.DecimalType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.IntType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.MicroSeconds;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.StringType;
import org.apache.parquet.format.TimestampType;
import org.apache.parquet.format.Type;
import org.apache.parquet.format.Util;

/**
 * Writes files with a schema and no rows, which Arrow's dataset writer does not produce: an Arrow
 * IPC file without batches, a CSV header line, and a Parquet file with a schema and no row groups
 * (its footer written here with parquet-format-structures, with the physical and logical types
 * Arrow maps back to the same Arrow types).
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
  private static byte[] parquetFooter(Schema schema) throws IOException {
    List<SchemaElement> elements = new ArrayList<>();
    elements.add(new SchemaElement("schema").setNum_children(schema.getFields().size()));
    for (Field field : schema.getFields()) {
      elements.add(element(field));
    }
    FileMetaData metadata = new FileMetaData(1, elements, 0, List.of()).setCreated_by("quiver");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Util.writeFileMetaData(metadata, out);
    return out.toByteArray();
  }

  // The physical and logical types (and the converted types older readers look at) Arrow maps
  // back to the field's Arrow type.
  private static SchemaElement element(Field field) {
    ArrowType type = field.getType();
    SchemaElement element =
        new SchemaElement(field.getName())
            .setRepetition_type(
                field.isNullable() ? FieldRepetitionType.OPTIONAL : FieldRepetitionType.REQUIRED);
    if (type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      int bits = integer.getBitWidth();
      element.setType(bits == 64 ? Type.INT64 : Type.INT32);
      if (bits < 32) {
        element.setLogicalType(LogicalType.INTEGER(new IntType((byte) bits, true)));
      }
    } else if (type instanceof ArrowType.FloatingPoint fp) {
      element.setType(
          fp.getPrecision() == FloatingPointPrecision.SINGLE ? Type.FLOAT : Type.DOUBLE);
    } else if (type instanceof ArrowType.Bool) {
      element.setType(Type.BOOLEAN);
    } else if (type instanceof ArrowType.Utf8) {
      element.setType(Type.BYTE_ARRAY).setConverted_type(ConvertedType.UTF8);
      element.setLogicalType(LogicalType.STRING(new StringType()));
    } else if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
      element.setType(Type.INT32).setConverted_type(ConvertedType.DATE);
      element.setLogicalType(LogicalType.DATE(new DateType()));
    } else if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
      int p = decimal.getPrecision();
      int s = decimal.getScale();
      element.setType(Type.FIXED_LEN_BYTE_ARRAY).setType_length(decimalBytes(p));
      element.setConverted_type(ConvertedType.DECIMAL).setScale(s).setPrecision(p);
      element.setLogicalType(LogicalType.DECIMAL(new DecimalType(s, p)));
    } else if (type instanceof ArrowType.Timestamp ts && ts.getUnit() == TimeUnit.MICROSECOND) {
      element.setType(Type.INT64);
      element.setLogicalType(
          LogicalType.TIMESTAMP(
              new TimestampType(
                  ts.getTimezone() != null,
                  org.apache.parquet.format.TimeUnit.MICROS(new MicroSeconds()))));
    } else {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          "Cannot write column '" + field.getName() + "' of type " + type + " to Parquet");
    }
    return element;
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
