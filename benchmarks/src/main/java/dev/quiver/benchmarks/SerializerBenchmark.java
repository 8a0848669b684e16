package dev.quiver.benchmarks;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.operators.memory.Allocators;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one Arrow batch costs on a Flink network edge: {@link BatchSerializer} writing a 8,192-row
 * TPC-H lineitem batch into Flink's {@link DataOutputSerializer} and reading it back from a {@link
 * DataInputDeserializer}, per body compression, against {@code memcpy}: copying the same Arrow
 * buffers into a heap array, the least any serializer must pay. The gap is the price of the IPC
 * framing, compression and the reader's validation.
 *
 * <p>Scores are batches per second; {@link ByteCounters} adds uncompressed Arrow bytes per second
 * ({@code :arrowBytes}, comparable across codecs) and encoded bytes per second ({@code
 * :wireBytes}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
// Prepended, so that a command-line -jvmArgsAppend adds to it instead of replacing it.
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class SerializerBenchmark {
  static final int ROWS = 8_192;
  private static final Logger LOG = LoggerFactory.getLogger(SerializerBenchmark.class);

  /** The lineitem batch, its buffers, and the heap array {@code memcpy} copies them into. */
  @State(Scope.Thread)
  public static class Batch {
    int rows = ROWS; // the smoke test makes it smaller: LZ4 is very slow (see README)
    BufferAllocator allocator;
    VectorSchemaRoot root;
    BatchRecord record;
    List<ArrowBuf> buffers;
    long arrowBytes;
    byte[] copy;

    @Setup(Level.Trial)
    public void setUp() {
      allocator = Allocators.newChild("benchmark:serializer-batch");
      root = LineitemBatch.create(allocator, rows, 42);
      record = BatchRecord.data(0, root);
      buffers = new ArrayList<>();
      for (FieldVector vector : root.getFieldVectors()) {
        buffers.addAll(vector.getFieldBuffers());
      }
      arrowBytes = buffers.stream().mapToLong(ArrowBuf::writerIndex).sum();
      copy = new byte[Math.toIntExact(arrowBytes + 8L * buffers.size())];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      record.close();
      allocator.close();
    }
  }

  /** A serializer of one compression, its reused output buffer, and one serialized batch. */
  @State(Scope.Thread)
  public static class Wire {
    @Param({"NONE", "LZ4", "ZSTD"})
    public BatchCompression compression;

    BufferAllocator allocator; // the reader's, as a receiving task has its own
    BatchSerializer serializer;
    DataOutputSerializer output;
    DataInputDeserializer input;
    byte[] bytes;
    int length;

    @Setup(Level.Trial)
    public void setUp(Batch batch) throws IOException {
      allocator = Allocators.newChild("benchmark:serializer-reader");
      serializer = new BatchSerializer(LineitemBatch.SCHEMA, compression, "benchmark");
      output = new DataOutputSerializer(Math.toIntExact(batch.arrowBytes + (64 << 10)));
      serializer.serialize(batch.record, output);
      length = output.length();
      bytes = output.getCopyOfBuffer();
      input = new DataInputDeserializer();
      LOG.info(
          "{} rows, {} Arrow bytes -> {} {} bytes ({}% of Arrow)",
          batch.rows,
          batch.arrowBytes,
          length,
          compression,
          Math.round(100.0 * length / batch.arrowBytes));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      allocator.close();
    }
  }

  /** One batch into the reused output buffer; returns the encoded size. */
  @Benchmark
  public int serialize(Batch batch, Wire wire, ByteCounters counters) throws IOException {
    wire.output.clear();
    wire.serializer.serialize(batch.record, wire.output);
    counters.arrowBytes += batch.arrowBytes;
    counters.wireBytes += wire.output.length();
    return wire.output.length();
  }

  /** One batch decoded (and validated) from the serialized bytes, then closed; returns its rows. */
  @Benchmark
  public int deserialize(Batch batch, Wire wire, ByteCounters counters) throws IOException {
    wire.input.setBuffer(wire.bytes, 0, wire.length);
    try (BatchRecord record = wire.serializer.deserialize(wire.input, wire.allocator)) {
      counters.arrowBytes += batch.arrowBytes;
      counters.wireBytes += wire.length;
      return record.rowCount();
    }
  }

  /**
   * The baseline: every buffer of the batch copied into one reused heap array, each at an 8-byte
   * aligned position as in the IPC body (unaligned destinations made this copy about a third slower
   * here).
   */
  @Benchmark
  public int memcpy(Batch batch, ByteCounters counters) {
    int position = 0;
    for (ArrowBuf buffer : batch.buffers) {
      int size = (int) buffer.writerIndex();
      buffer.getBytes(0, batch.copy, position, size);
      position = (position + size + 7) & ~7;
    }
    counters.arrowBytes += batch.arrowBytes;
    counters.wireBytes += batch.arrowBytes;
    return position;
  }
}
