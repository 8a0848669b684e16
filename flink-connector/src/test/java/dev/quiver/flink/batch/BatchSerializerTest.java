package dev.quiver.flink.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.memory.TaskAllocators;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(ArrowLeakCheck.class)
class BatchSerializerTest {
  private BufferAllocator allocator;
  private TaskAllocators.Binding binding;

  @BeforeEach
  void bind(BufferAllocator allocator) {
    this.allocator = allocator;
    this.binding = TaskAllocators.bind(allocator);
  }

  @AfterEach
  void unbind() {
    binding.close();
  }

  private static TypeSerializer<BatchRecord> serializer(
      Schema schema, BatchCompression compression) {
    return BatchTypeInfo.of(schema, compression, "test-edge")
        .createSerializer(new SerializerConfigImpl());
  }

  private static byte[] write(TypeSerializer<BatchRecord> serializer, BatchRecord record)
      throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    serializer.serialize(record, out);
    return out.getCopyOfBuffer();
  }

  private static BatchRecord read(TypeSerializer<BatchRecord> serializer, byte[] bytes)
      throws IOException {
    DataInputDeserializer in = new DataInputDeserializer(bytes);
    BatchRecord record = serializer.deserialize(in);
    assertThat(in.available()).as("bytes left after one record").isZero();
    return record;
  }

  private void assertRoundTrip(VectorSchemaRoot batch, BatchCompression compression)
      throws IOException {
    TypeSerializer<BatchRecord> serializer = serializer(batch.getSchema(), compression);
    try (BatchRecord record = BatchRecord.data(3, 7, batch);
        BatchRecord back = read(serializer, write(serializer, record))) {
      assertThat(back.partition()).isEqualTo(3);
      assertThat(back.channel()).isEqualTo(7);
      assertThat(back.batch().getSchema()).isEqualTo(batch.getSchema());
      assertThat(back.rowCount()).isEqualTo(batch.getRowCount());
      assertThat(BatchRows.rows(back.batch())).isEqualTo(BatchRows.rows(batch));
    }
  }

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void everyTypeWithNulls(BatchCompression compression) throws IOException {
    for (double nulls : new double[] {0, 0.3, 1}) {
      for (int rows : new int[] {0, 1, 7, 8192}) {
        RandomBatches random =
            new RandomBatches(rows * 31L + (long) (nulls * 10)).nullFraction(nulls);
        assertRoundTrip(random.batch(RandomBatches.ALL_TYPES, rows, allocator), compression);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void slicedVectors(BatchCompression compression) throws IOException {
    try (VectorSchemaRoot whole =
        new RandomBatches(5).nullFraction(0.2).batch(RandomBatches.ALL_TYPES, 1000, allocator)) {
      for (int[] range : new int[][] {{0, 10}, {3, 500}, {999, 1}, {13, 0}}) {
        assertRoundTrip(whole.slice(range[0], range[1]), compression);
      }
    }
  }

  @Test
  void zeroColumnBatchKeepsItsRowCount() throws IOException {
    VectorSchemaRoot batch = VectorSchemaRoot.create(new Schema(List.of()), allocator);
    batch.setRowCount(42);
    assertRoundTrip(batch, BatchCompression.NONE);
  }

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void veryLongStrings(BatchCompression compression) throws IOException {
    Schema schema = new Schema(List.of(RandomBatches.field("s", ArrowType.Utf8.INSTANCE)));
    VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
    VarCharVector strings = (VarCharVector) batch.getVector(0);
    char[] big = new char[8 << 20];
    Arrays.fill(big, 'x');
    strings.setSafe(0, new String(big).getBytes(StandardCharsets.UTF_8));
    strings.setNull(1);
    strings.setSafe(2, "après".getBytes(StandardCharsets.UTF_8));
    batch.setRowCount(3);
    assertRoundTrip(batch, compression);
  }

  @Test
  void endOfPartitionMarker() throws IOException {
    TypeSerializer<BatchRecord> serializer =
        serializer(RandomBatches.ALL_TYPES, BatchCompression.NONE);
    BatchRecord back = read(serializer, write(serializer, BatchRecord.endOfPartition(5, 2)));
    assertThat(back.isEndOfPartition()).isTrue();
    assertThat(back.partition()).isEqualTo(5);
    assertThat(back.channel()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void copiesSerializedBytesWithoutDecoding(BatchCompression compression) throws IOException {
    TypeSerializer<BatchRecord> serializer = serializer(RandomBatches.ALL_TYPES, compression);
    try (BatchRecord record =
        BatchRecord.data(1, new RandomBatches(9).batch(RandomBatches.ALL_TYPES, 300, allocator))) {
      DataOutputSerializer out = new DataOutputSerializer(64);
      serializer.serialize(record, out);
      serializer.serialize(BatchRecord.endOfPartition(1, BatchRecord.NO_CHANNEL), out);
      DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
      DataOutputSerializer copy = new DataOutputSerializer(64);
      serializer.copy(in, copy);
      serializer.copy(in, copy);
      assertThat(copy.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
    }
  }

  @Test
  void copyOfRecordSharesImmutableBuffers() {
    TypeSerializer<BatchRecord> serializer =
        serializer(RandomBatches.ALL_TYPES, BatchCompression.NONE);
    try (BatchRecord record =
            BatchRecord.data(
                2, 4, new RandomBatches(11).batch(RandomBatches.ALL_TYPES, 100, allocator));
        BatchRecord copy = serializer.copy(record)) {
      assertThat(BatchRows.rows(copy.batch())).isEqualTo(BatchRows.rows(record.batch()));
      assertThat(copy.partition()).isEqualTo(2);
      assertThat(copy.channel()).isEqualTo(4);
    }
  }

  @Test
  void compressionShrinksRepetitiveData() throws IOException {
    try (VectorSchemaRoot batch =
        new RandomBatches(3).distinctValues(4).batch(RandomBatches.ALL_TYPES, 8192, allocator)) {
      BatchRecord record = BatchRecord.data(0, batch);
      int plain = write(serializer(batch.getSchema(), BatchCompression.NONE), record).length;
      int lz4 = write(serializer(batch.getSchema(), BatchCompression.LZ4), record).length;
      int zstd = write(serializer(batch.getSchema(), BatchCompression.ZSTD), record).length;
      assertThat(lz4).isLessThan(plain / 2);
      assertThat(zstd).isLessThan(plain / 2);
    }
  }

  @Test
  void snapshotRestoresAndChecksCompatibility() throws IOException {
    BatchSerializer serializer =
        (BatchSerializer) serializer(RandomBatches.ALL_TYPES, BatchCompression.ZSTD);
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
    TypeSerializerSnapshot<BatchRecord> restored =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
    assertThat(restored.restoreSerializer()).isEqualTo(serializer);

    TypeSerializerSchemaCompatibility<BatchRecord> sameSchemaOtherCodec =
        serializer(RandomBatches.ALL_TYPES, BatchCompression.LZ4)
            .snapshotConfiguration()
            .resolveSchemaCompatibility(restored);
    assertThat(sameSchemaOtherCodec.isCompatibleAsIs()).isTrue();

    Schema other = new Schema(List.of(RandomBatches.field("x", new ArrowType.Int(64, true))));
    assertThat(
            serializer(other, BatchCompression.ZSTD)
                .snapshotConfiguration()
                .resolveSchemaCompatibility(restored)
                .isIncompatible())
        .isTrue();
  }

  @Test
  void recordOfAnotherSchemaIsRejectedOnWrite() {
    Schema other = new Schema(List.of(RandomBatches.field("x", new ArrowType.Int(64, true))));
    TypeSerializer<BatchRecord> serializer = serializer(other, BatchCompression.NONE);
    try (BatchRecord record =
        BatchRecord.data(0, new RandomBatches(1).batch(RandomBatches.ALL_TYPES, 3, allocator))) {
      assertThatThrownBy(() -> write(serializer, record))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("test-edge");
    }
  }

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void truncatedInputIsAClearErrorAtEveryLength(BatchCompression compression) throws IOException {
    TypeSerializer<BatchRecord> serializer = serializer(RandomBatches.ALL_TYPES, compression);
    byte[] bytes;
    try (BatchRecord record =
        BatchRecord.data(0, new RandomBatches(21).batch(RandomBatches.ALL_TYPES, 20, allocator))) {
      bytes = write(serializer, record);
    }
    for (int length = 0; length < bytes.length; length++) {
      byte[] truncated = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> serializer.deserialize(new DataInputDeserializer(truncated)))
          .as("truncated to %d of %d bytes", length, bytes.length)
          .isInstanceOf(CorruptBatchException.class)
          .hasMessageContaining("test-edge");
    }
  }

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void corruptBytesNeverCrashOrLeak(BatchCompression compression) throws IOException {
    TypeSerializer<BatchRecord> serializer = serializer(RandomBatches.ALL_TYPES, compression);
    byte[] bytes;
    try (BatchRecord record =
        BatchRecord.data(0, new RandomBatches(22).batch(RandomBatches.ALL_TYPES, 50, allocator))) {
      bytes = write(serializer, record);
    }
    Random random = new Random(42);
    int rejected = 0;
    for (int trial = 0; trial < 3000; trial++) {
      byte[] corrupt = bytes.clone();
      int flips = 1 + random.nextInt(4);
      for (int f = 0; f < flips; f++) {
        corrupt[random.nextInt(corrupt.length)] = (byte) random.nextInt(256);
      }
      String outcome = "decoded";
      try (BatchRecord ignored = serializer.deserialize(new DataInputDeserializer(corrupt))) {
        // A flipped value byte may still decode to a valid (different) batch.
      } catch (CorruptBatchException e) {
        assertThat(e).hasMessageContaining("test-edge");
        outcome = e.getMessage();
        rejected++;
      }
      assertThat(allocator.getAllocatedMemory())
          .as("leak after trial %d: %s", trial, outcome)
          .isZero();
    }
    assertThat(rejected).isPositive();
  }
}
