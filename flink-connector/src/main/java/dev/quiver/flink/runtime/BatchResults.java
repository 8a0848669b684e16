package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.flink.batch.BatchTypeInfo;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.core.execution.JobClient;
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
 * Results leave the job as bytes: no task after the last one needs an Arrow allocator, and the
 * reader decodes each batch once, into its own memory.
 */
public final class BatchResults {
  private BatchResults() {}

  /** Submits the job and returns its data records, decoded into {@code allocator}. */
  public static ResultRecords collect(
      DataStream<BatchRecord> stream, BufferAllocator allocator, String jobName) throws Exception {
    requireNonNull(allocator, "allocator is null");
    requireNonNull(jobName, "jobName is null");
    BatchTypeInfo type = (BatchTypeInfo) stream.getType();
    CloseableIterator<byte[]> bytes =
        stream
            .transform(
                "encode result",
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
                new EncodeOperator(type))
            .setParallelism(stream.getParallelism())
            .collectAsync();
    JobClient client = stream.getExecutionEnvironment().executeAsync(jobName);
    return new ResultRecords(
        client,
        bytes,
        (BatchSerializer) type.createSerializer(new SerializerConfigImpl()),
        allocator);
  }
}
