package dev.quiver.benchmarks;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.Pool;
import org.apache.flink.core.fs.Path;
import org.apache.flink.formats.parquet.ParquetVectorizedInputFormat;
import org.apache.flink.formats.parquet.utils.SerializableConfiguration;
import org.apache.flink.formats.parquet.vector.ColumnBatchFactory;
import org.apache.flink.formats.parquet.vector.ParquetDecimalVector;
import org.apache.flink.formats.parquet.vector.ParquetDictionary;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.Dictionary;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.data.columnar.vector.heap.AbstractHeapVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapIntVector;
import org.apache.flink.table.data.columnar.vector.writable.AbstractWritableVector;
import org.apache.flink.table.data.columnar.vector.writable.WritableColumnVector;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Candidate reader (issue #16): Flink's own vectorized Parquet reader ({@link
 * ParquetVectorizedInputFormat}, flink-parquet), driven without a job, each of its batches copied
 * into Arrow vectors of Quiver's types.
 *
 * <pre>
 *   FileSourceSplit(file, offset, length) ─► the row groups whose midpoint lies in the range
 *     ─► Flink's column readers ─► Flink heap vectors (VectorizedColumnBatch)
 *     ─► copy, value by value ─► Arrow vectors
 * </pre>
 *
 * <p>The format is a {@code BulkFormat}: {@code createReader(config, split)} and {@code
 * readBatch()} need no Flink runtime, only a Hadoop {@code Configuration} (files are opened through
 * Hadoop's local file system). Not thread-safe: one thread per reader.
 */
final class FlinkParquetBatchReader implements AutoCloseable {
  private final List<FileSourceSplit> splits;
  private final ArrowCopyFormat format;
  private int nextSplit;
  private BulkFormat.Reader<VectorSchemaRoot> reader;

  FlinkParquetBatchReader(
      List<FileSourceSplit> splits, Schema output, int batchRows, BufferAllocator allocator) {
    this.splits = List.copyOf(requireNonNull(splits, "splits is null"));
    this.format = new ArrowCopyFormat(output, batchRows, allocator);
  }

  /** A split of the row groups {@code units} of one file (contiguous in that file). */
  static FileSourceSplit split(String id, List<RowGroupUnit> units) {
    RowGroupUnit first = units.get(0);
    RowGroupUnit last = units.get(units.size() - 1);
    java.nio.file.Path file = first.file();
    long size;
    try {
      size = java.nio.file.Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Flink keeps the row groups whose midpoint lies in [offset, offset + length).
    long offset = first.start();
    long end = last.start() + last.bytes();
    return new FileSourceSplit(
        id, new Path(file.toUri()), offset, end - offset, 0L, size, new String[0]);
  }

  /** The next batch (owned by the caller), or null after the last split. */
  VectorSchemaRoot next() {
    try {
      while (true) {
        if (reader == null) {
          if (nextSplit == splits.size()) {
            return null;
          }
          reader = format.createReader(new Configuration(), splits.get(nextSplit++));
        }
        BulkFormat.RecordIterator<VectorSchemaRoot> records = reader.readBatch();
        if (records == null) {
          reader.close();
          reader = null;
          continue;
        }
        try {
          var record = records.next();
          if (record != null) {
            return record.getRecord();
          }
        } finally {
          records.releaseBatch();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (reader != null) {
      try {
        reader.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        reader = null;
      }
    }
  }

  static RowType rowType(Schema output) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (Field field : output.getFields()) {
      fields.add(new RowType.RowField(field.getName(), logicalType(field)));
    }
    return new RowType(fields);
  }

  private static LogicalType logicalType(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      if (integer.getBitWidth() == 64) {
        return new BigIntType();
      }
      if (integer.getBitWidth() == 32) {
        return new IntType();
      }
    } else if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
      return new DecimalType(decimal.getPrecision(), decimal.getScale());
    } else if (type instanceof ArrowType.Utf8) {
      return new VarCharType(VarCharType.MAX_LENGTH);
    } else if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
      return new DateType();
    } else if (type instanceof ArrowType.Bool) {
      return new BooleanType();
    } else if (type instanceof ArrowType.FloatingPoint fp) {
      return fp.getPrecision() == FloatingPointPrecision.DOUBLE
          ? new DoubleType()
          : new FloatType();
    }
    throw new UnsupportedOperationException("no Flink type for " + field);
  }

  private static final java.lang.reflect.Field DICTIONARY;

  static {
    try {
      DICTIONARY = AbstractWritableVector.class.getDeclaredField("dictionary");
      DICTIONARY.setAccessible(true);
    } catch (NoSuchFieldException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The vector's dictionary if it is one of binary values (whose decodeToLong throws), else null.
   */
  private static Dictionary binaryDictionary(AbstractHeapVector vector) {
    try {
      Dictionary dictionary = (Dictionary) DICTIONARY.get(vector);
      if (dictionary instanceof ParquetDictionary parquet) {
        try {
          parquet.decodeToLong(0);
          return null;
        } catch (UnsupportedOperationException e) {
          return dictionary;
        }
      }
      return null;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Flink's vectorized format whose batches become Arrow batches. */
  private static final class ArrowCopyFormat
      extends ParquetVectorizedInputFormat<VectorSchemaRoot, FileSourceSplit> {
    private static final long serialVersionUID = 1L;
    private final transient Schema output;
    private final transient BufferAllocator allocator;

    ArrowCopyFormat(Schema output, int batchRows, BufferAllocator allocator) {
      super(
          new SerializableConfiguration(new org.apache.hadoop.conf.Configuration()),
          rowType(output),
          ColumnBatchFactory.withoutExtraFields(),
          batchRows,
          true,
          true);
      this.output = output;
      this.allocator = allocator;
    }

    @Override
    public org.apache.flink.api.common.typeinfo.TypeInformation<VectorSchemaRoot>
        getProducedType() {
      return org.apache.flink.api.common.typeinfo.TypeInformation.of(VectorSchemaRoot.class);
    }

    @Override
    protected int numBatchesToCirculate(Configuration config) {
      return 1; // each batch is copied out before the next one is read
    }

    @Override
    protected ParquetReaderBatch<VectorSchemaRoot> createReaderBatch(
        WritableColumnVector[] writableVectors,
        VectorizedColumnBatch columnarBatch,
        Pool.Recycler<ParquetReaderBatch<VectorSchemaRoot>> recycler) {
      return new ParquetReaderBatch<>(writableVectors, columnarBatch, recycler) {
        @Override
        public BulkFormat.RecordIterator<VectorSchemaRoot> convertAndGetIterator(
            long rowsReturned) {
          VectorSchemaRoot root = copy(columnarBatch);
          ParquetReaderBatch<VectorSchemaRoot> batch = this;
          return new BulkFormat.RecordIterator<>() {
            private boolean taken;

            @Override
            public org.apache.flink.connector.file.src.util.RecordAndPosition<VectorSchemaRoot>
                next() {
              if (taken) {
                return null;
              }
              taken = true;
              return new org.apache.flink.connector.file.src.util.RecordAndPosition<>(
                  root, 0L, rowsReturned);
            }

            @Override
            public void releaseBatch() {
              batch.recycle();
            }
          };
        }
      };
    }

    private VectorSchemaRoot copy(VectorizedColumnBatch batch) {
      int rows = batch.getNumRows();
      List<FieldVector> vectors = new ArrayList<>(output.getFields().size());
      try {
        for (int c = 0; c < output.getFields().size(); c++) {
          FieldVector vector = output.getFields().get(c).createVector(allocator);
          vectors.add(vector);
          copy(batch.columns[c], vector, rows);
          vector.setValueCount(rows);
        }
      } catch (RuntimeException e) {
        vectors.forEach(FieldVector::close);
        throw e;
      }
      return new VectorSchemaRoot(output.getFields(), vectors, rows);
    }

    private static void copy(ColumnVector from, FieldVector to, int rows) {
      if (to instanceof VarCharVector out) {
        BytesColumnVector in = (BytesColumnVector) from;
        out.allocateNew(rows * 16L, rows);
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            BytesColumnVector.Bytes bytes = in.getBytes(i);
            out.setSafe(i, bytes.data, bytes.offset, bytes.len);
          }
        }
      } else if (to instanceof BigIntVector out) {
        LongColumnVector in = (LongColumnVector) from;
        out.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, in.getLong(i));
          }
        }
      } else if (to instanceof IntVector out) {
        IntColumnVector in = (IntColumnVector) from;
        out.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, in.getInt(i));
          }
        }
      } else if (to instanceof DateDayVector out) {
        IntColumnVector in = (IntColumnVector) from;
        out.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, in.getInt(i));
          }
        }
      } else if (to instanceof DecimalVector out) {
        copyDecimals(((ParquetDecimalVector) from).getVector(), out, rows);
      } else if (to instanceof BitVector out) {
        BooleanColumnVector in = (BooleanColumnVector) from;
        out.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, in.getBoolean(i) ? 1 : 0);
          }
        }
      } else if (to instanceof Float8Vector out) {
        DoubleColumnVector in = (DoubleColumnVector) from;
        out.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, in.getDouble(i));
          }
        }
      } else if (to instanceof Float4Vector out) {
        FloatColumnVector in = (FloatColumnVector) from;
        out.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, in.getFloat(i));
          }
        }
      } else {
        throw new UnsupportedOperationException("no copy into " + to.getField());
      }
    }

    /**
     * Flink holds a decimal of precision <= 9 as an int, <= 18 as a long, else as bytes. A
     * dictionary-encoded FIXED_LEN_BYTE_ARRAY decimal (Arrow C++ writes them; parquet-java's v1
     * writer never does) stays as dictionary ids with a binary dictionary, whose {@code
     * decodeToLong} / {@code decodeToInt} throw (Flink's own {@code getDecimal} fails the same
     * way): such values are decoded here from the dictionary's bytes.
     */
    private static void copyDecimals(ColumnVector in, DecimalVector out, int rows) {
      out.allocateNew(rows);
      Dictionary dictionary =
          in instanceof AbstractHeapVector heap && heap.hasDictionary()
              ? binaryDictionary(heap)
              : null;
      if (dictionary != null) {
        HeapIntVector ids = ((AbstractHeapVector) in).getDictionaryIds();
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.setBigEndian(i, dictionary.decodeToBinary(ids.vector[i]));
          }
        }
      } else if (in instanceof LongColumnVector longs) {
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, longs.getLong(i));
          }
        }
      } else if (in instanceof IntColumnVector ints) {
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.set(i, (long) ints.getInt(i));
          }
        }
      } else {
        BytesColumnVector bytes = (BytesColumnVector) in;
        for (int i = 0; i < rows; i++) {
          if (!in.isNullAt(i)) {
            out.setBigEndian(i, bytes.getBytes(i).getBytes());
          }
        }
      }
    }
  }
}
