package dev.quiver.benchmarks;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Candidate reader (issue #16): the chosen row groups of Parquet files, read with parquet-java's
 * {@link ParquetFileReader#readRowGroup(int)} and decoded value by value with its {@link
 * ColumnReader} straight into Arrow vectors of Quiver's types.
 *
 * <pre>
 *   units (file, row group)* ─► ParquetFileReader.readRowGroup(i), projected columns only
 *     ─► ColumnReadStoreImpl ─► one ColumnReader per column ─► Decoder ─► Arrow vector
 * </pre>
 *
 * <p>Flat schemas only (no repetition). Nulls come from definition levels. Decimals stored as
 * INT32, INT64, FIXED_LEN_BYTE_ARRAY or BINARY become {@link DecimalVector} values without a {@code
 * BigDecimal}: dictionary entries are converted once per column chunk (to unscaled longs when they
 * fit), plain values from their big-endian bytes. Strings are copied from the dictionary
 * (concatenated once per column chunk) or from the page; the only per-value objects are the ones
 * parquet-java itself makes for plain (non-dictionary) binary values. Batches hold at most {@code
 * batchRows} rows and never span row groups. Not thread-safe: one thread per reader.
 */
final class ParquetJavaBatchReader implements AutoCloseable {
  private final List<RowGroupUnit> units;
  private final Schema output;
  private final int batchRows;
  private final BufferAllocator allocator;
  private int nextUnit;
  private Path openFile;
  private ParquetFileReader reader;
  private MessageType requested;
  private Decoder[] decoders;
  private ColumnReader[] columns;
  private long remaining;

  /**
   * @param output the batches' schema: Quiver types, field names equal to the file's column names
   */
  ParquetJavaBatchReader(
      List<RowGroupUnit> units, Schema output, int batchRows, BufferAllocator allocator) {
    this.units = List.copyOf(requireNonNull(units, "units is null"));
    this.output = requireNonNull(output, "output is null");
    this.batchRows = batchRows;
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  /** The next batch (owned by the caller), or null after the last row group. */
  VectorSchemaRoot next() {
    try {
      while (remaining == 0) {
        if (nextUnit == units.size()) {
          return null;
        }
        openRowGroup(units.get(nextUnit++));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int rows = (int) Math.min(batchRows, remaining);
    List<FieldVector> vectors = new ArrayList<>(decoders.length);
    try {
      for (int c = 0; c < decoders.length; c++) {
        FieldVector vector = output.getFields().get(c).createVector(allocator);
        vectors.add(vector);
        decoders[c].read(columns[c], vector, rows);
        vector.setValueCount(rows);
      }
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    remaining -= rows;
    return new VectorSchemaRoot(output.getFields(), vectors, rows);
  }

  private void openRowGroup(RowGroupUnit unit) throws IOException {
    if (!unit.file().equals(openFile)) {
      closeFile();
      reader =
          ParquetFileReader.open(
              new LocalInputFile(unit.file()), ParquetReadOptions.builder().build());
      openFile = unit.file();
      MessageType schema = reader.getFileMetaData().getSchema();
      List<Type> fields = new ArrayList<>();
      decoders = new Decoder[output.getFields().size()];
      for (int c = 0; c < decoders.length; c++) {
        Field field = output.getFields().get(c);
        Type type = schema.getType(field.getName());
        if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
          throw new UnsupportedOperationException("not a flat column: " + type);
        }
        fields.add(type);
      }
      requested = new MessageType(schema.getName(), fields);
      reader.setRequestedSchema(requested);
      for (int c = 0; c < decoders.length; c++) {
        decoders[c] = Decoder.of(requested.getColumns().get(c), output.getFields().get(c));
      }
    }
    PageReadStore pages = reader.readRowGroup(unit.index());
    ColumnReadStoreImpl store =
        new ColumnReadStoreImpl(
            pages, new Converters(decoders), requested, reader.getFileMetaData().getCreatedBy());
    columns = new ColumnReader[decoders.length];
    for (int c = 0; c < decoders.length; c++) {
      // Reads the chunk's dictionary page, handing it to the decoder (setDictionary).
      columns[c] = store.getColumnReader(requested.getColumns().get(c));
    }
    remaining = pages.getRowCount();
  }

  private void closeFile() throws IOException {
    if (reader != null) {
      reader.close();
      reader = null;
      openFile = null;
    }
  }

  @Override
  public void close() {
    try {
      closeFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The record converter ColumnReadStoreImpl asks for each column's converter. */
  private static final class Converters extends GroupConverter {
    private final Decoder[] decoders;

    Converters(Decoder[] decoders) {
      this.decoders = decoders;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return decoders[fieldIndex];
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }

  /**
   * Decodes {@code rows} values of one column into a vector. Those that take values through the
   * converter interface ({@link ColumnReader#writeCurrentValueToConverter()}) see dictionary ids of
   * dictionary-encoded pages and convert each dictionary entry once.
   */
  abstract static class Decoder extends PrimitiveConverter {
    final int maxDefinition;

    Decoder(ColumnDescriptor column) {
      this.maxDefinition = column.getMaxDefinitionLevel();
    }

    abstract void read(ColumnReader column, FieldVector vector, int rows);

    static Decoder of(ColumnDescriptor column, Field field) {
      PrimitiveType primitive = column.getPrimitiveType();
      PrimitiveTypeName physical = primitive.getPrimitiveTypeName();
      LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
      ArrowType type = field.getType();
      if (type instanceof ArrowType.Decimal decimal
          && logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation annotation
          && annotation.getScale() == decimal.getScale()
          && decimal.getBitWidth() == 128) {
        return switch (physical) {
          case INT32 -> new IntDecimals(column);
          case INT64 -> new LongDecimals(column);
          case FIXED_LEN_BYTE_ARRAY, BINARY -> new ByteDecimals(column);
          default -> throw unsupported(column, field);
        };
      }
      if (type instanceof ArrowType.Int integer
          && integer.getIsSigned()
          && (logical == null
              || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation annotated
                  && annotated.isSigned()
                  && annotated.getBitWidth() == integer.getBitWidth())) {
        if (integer.getBitWidth() == 64 && physical == PrimitiveTypeName.INT64) {
          return new Longs(column);
        }
        if (integer.getBitWidth() == 32 && physical == PrimitiveTypeName.INT32) {
          return new Ints(column);
        }
      }
      if (type instanceof ArrowType.Date date
          && date.getUnit() == DateUnit.DAY
          && physical == PrimitiveTypeName.INT32
          && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
        return new Ints(column);
      }
      if (type instanceof ArrowType.Utf8 && physical == PrimitiveTypeName.BINARY) {
        return new Strings(column);
      }
      if (type instanceof ArrowType.Bool && physical == PrimitiveTypeName.BOOLEAN) {
        return new Booleans(column);
      }
      if (type instanceof ArrowType.FloatingPoint fp) {
        if (fp.getPrecision() == FloatingPointPrecision.DOUBLE
            && physical == PrimitiveTypeName.DOUBLE) {
          return new Doubles(column);
        }
        if (fp.getPrecision() == FloatingPointPrecision.SINGLE
            && physical == PrimitiveTypeName.FLOAT) {
          return new Floats(column);
        }
      }
      throw unsupported(column, field);
    }

    private static UnsupportedOperationException unsupported(ColumnDescriptor column, Field field) {
      return new UnsupportedOperationException(
          "no decoder from " + column.getPrimitiveType() + " to " + field.getType());
    }
  }

  private static final class Longs extends Decoder {
    Longs(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      BigIntVector out = (BigIntVector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          out.set(i, column.getLong());
        }
        column.consume();
      }
    }
  }

  /** INT32 into an IntVector or a DateDayVector (days since the epoch in both). */
  private static final class Ints extends Decoder {
    Ints(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      if (vector instanceof DateDayVector dates) {
        dates.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (column.getCurrentDefinitionLevel() == maxDefinition) {
            dates.set(i, column.getInteger());
          }
          column.consume();
        }
        return;
      }
      IntVector out = (IntVector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          out.set(i, column.getInteger());
        }
        column.consume();
      }
    }
  }

  private static final class Booleans extends Decoder {
    Booleans(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      BitVector out = (BitVector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          out.set(i, column.getBoolean() ? 1 : 0);
        }
        column.consume();
      }
    }
  }

  private static final class Doubles extends Decoder {
    Doubles(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      Float8Vector out = (Float8Vector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          out.set(i, column.getDouble());
        }
        column.consume();
      }
    }
  }

  private static final class Floats extends Decoder {
    Floats(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      Float4Vector out = (Float4Vector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          out.set(i, column.getFloat());
        }
        column.consume();
      }
    }
  }

  /** A decimal stored as INT32: the unscaled value. */
  private static final class IntDecimals extends Decoder {
    IntDecimals(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      DecimalVector out = (DecimalVector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          out.set(i, (long) column.getInteger());
        }
        column.consume();
      }
    }
  }

  /** A decimal stored as INT64: the unscaled value. */
  private static final class LongDecimals extends Decoder {
    LongDecimals(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      DecimalVector out = (DecimalVector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          out.set(i, column.getLong());
        }
        column.consume();
      }
    }
  }

  /**
   * A decimal stored as big-endian two's complement bytes (FIXED_LEN_BYTE_ARRAY or BINARY). Values
   * of up to 8 bytes become longs (each dictionary entry once); longer ones go through {@link
   * DecimalVector#setBigEndian}.
   */
  private static final class ByteDecimals extends Decoder {
    private DecimalVector out;
    private int index;
    private long[] dictionaryLongs; // null when an entry is longer than 8 bytes
    private byte[][] dictionaryBytes;

    ByteDecimals(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      out = (DecimalVector) vector;
      out.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          index = i;
          column.writeCurrentValueToConverter();
        }
        column.consume();
      }
      out = null;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
      int size = dictionary.getMaxId() + 1;
      long[] longs = new long[size];
      byte[][] bytes = new byte[size][];
      boolean fits = true;
      for (int id = 0; id < size; id++) {
        Binary value = dictionary.decodeToBinary(id);
        bytes[id] = value.getBytes();
        if (bytes[id].length > 8) {
          fits = false;
        } else {
          longs[id] = unscaled(value.toByteBuffer());
        }
      }
      dictionaryLongs = fits ? longs : null;
      dictionaryBytes = bytes;
    }

    @Override
    public void addValueFromDictionary(int id) {
      if (dictionaryLongs != null) {
        out.set(index, dictionaryLongs[id]);
      } else {
        out.setBigEndian(index, dictionaryBytes[id]);
      }
    }

    @Override
    public void addBinary(Binary value) {
      if (value.length() <= 8) {
        out.set(index, unscaled(value.toByteBuffer()));
      } else {
        out.setBigEndian(index, value.getBytes());
      }
    }

    /** Big-endian two's complement of 1 to 8 bytes, sign-extended. */
    static long unscaled(ByteBuffer bytes) {
      int position = bytes.position();
      int length = bytes.remaining();
      long value = bytes.get(position); // sign-extends the first byte
      for (int i = 1; i < length; i++) {
        value = (value << 8) | (bytes.get(position + i) & 0xFF);
      }
      return length == 0 ? 0 : value;
    }
  }

  /** UTF-8 strings; dictionary entries are concatenated once per column chunk. */
  private static final class Strings extends Decoder {
    private VarCharVector out;
    private int index;
    private byte[] dictionaryData;
    private int[] dictionaryOffsets;
    private long bytesPerValue = 16;

    Strings(ColumnDescriptor column) {
      super(column);
    }

    @Override
    void read(ColumnReader column, FieldVector vector, int rows) {
      out = (VarCharVector) vector;
      out.allocateNew(Math.max(64, bytesPerValue * rows), rows);
      for (int i = 0; i < rows; i++) {
        if (column.getCurrentDefinitionLevel() == maxDefinition) {
          index = i;
          column.writeCurrentValueToConverter();
        }
        column.consume();
      }
      out.setValueCount(rows); // fills the offsets of trailing nulls
      // Size the next batch's data buffer like this one (+1/8) so that setSafe rarely grows it.
      long used = out.getOffsetBuffer().getInt((long) rows * VarCharVector.OFFSET_WIDTH);
      bytesPerValue = used / rows + used / rows / 8 + 1;
      out = null;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
      int size = dictionary.getMaxId() + 1;
      int[] offsets = new int[size + 1];
      long total = 0;
      for (int id = 0; id < size; id++) {
        total += dictionary.decodeToBinary(id).length();
        offsets[id + 1] = Math.toIntExact(total);
      }
      byte[] data = new byte[Math.toIntExact(total)];
      for (int id = 0; id < size; id++) {
        ByteBuffer value = dictionary.decodeToBinary(id).toByteBuffer();
        value.get(value.position(), data, offsets[id], offsets[id + 1] - offsets[id]);
      }
      dictionaryData = data;
      dictionaryOffsets = offsets;
    }

    @Override
    public void addValueFromDictionary(int id) {
      int start = dictionaryOffsets[id];
      out.setSafe(index, dictionaryData, start, dictionaryOffsets[id + 1] - start);
    }

    @Override
    public void addBinary(Binary value) {
      ByteBuffer bytes = value.toByteBuffer();
      out.setSafe(index, bytes, bytes.position(), bytes.remaining());
    }
  }
}
