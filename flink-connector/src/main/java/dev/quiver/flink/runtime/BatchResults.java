package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.flink.batch.BatchTypeInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs the job that ends in a stream of batches and hands its data batches to the caller.
 *
 * <pre>
 *  task 0 ─encode─┐
 *  task 1 ─encode─┼─(bytes)─► Flink collect sink ─► client: decode into the caller's allocator
 *  task n ─encode─┘
 * </pre>
 *
 * Each batch returned by the iterator belongs to the caller. Closing the iterator early cancels the
 * job.
 */
public final class BatchResults {
  private BatchResults() {}

  /** Submits the job and returns its batches, decoded into {@code allocator}. */
  public static CloseableIterator<BatchRecord> collect(
      DataStream<BatchRecord> stream, BufferAllocator allocator, String jobName) throws Exception {
    requireNonNull(allocator, "allocator is null");
    BatchTypeInfo type = (BatchTypeInfo) stream.getType();
    DataStream<byte[]> bytes =
        stream
            .transform(
                "encode result",
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
                new EncodeOperator(type))
            .setParallelism(stream.getParallelism());
    return new Decoding(
        bytes.executeAndCollect(jobName),
        (BatchSerializer) type.createSerializer(new SerializerConfigImpl()),
        allocator);
  }

  private static final class Decoding implements CloseableIterator<BatchRecord> {
    private final CloseableIterator<byte[]> bytes;
    private final BatchSerializer serializer;
    private final BufferAllocator allocator;

    Decoding(
        CloseableIterator<byte[]> bytes, BatchSerializer serializer, BufferAllocator allocator) {
      this.bytes = bytes;
      this.serializer = serializer;
      this.allocator = allocator;
    }

    @Override
    public boolean hasNext() {
      return bytes.hasNext();
    }

    @Override
    public BatchRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      try {
        return serializer.deserialize(new DataInputDeserializer(bytes.next()), allocator);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws Exception {
      bytes.close();
    }
  }
}
