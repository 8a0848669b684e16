package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.flink.batch.BatchTypeInfo;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.collect.CheckpointedCollectResultBuffer;
import org.apache.flink.streaming.api.operators.collect.CollectResultIterator;
import org.apache.flink.streaming.api.operators.collect.CollectSinkOperatorFactory;
import org.apache.flink.streaming.api.operators.collect.CollectStreamSink;
import org.apache.flink.streaming.api.operators.collect.UncheckpointedCollectResultBuffer;
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
  /** How often the client asks the job for more results while none are waiting. */
  private static final int POLL_MILLIS = 5;

  private BatchResults() {}

  /** Submits the job and returns its data records, decoded into {@code allocator}. */
  public static ResultRecords collect(
      DataStream<BatchRecord> stream, BufferAllocator allocator, String jobName) throws Exception {
    requireNonNull(allocator, "allocator is null");
    requireNonNull(jobName, "jobName is null");
    BatchTypeInfo type = (BatchTypeInfo) stream.getType();
    DataStream<byte[]> encoded =
        stream
            .transform(
                "encode result",
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
                new EncodeOperator(type))
            .setParallelism(stream.getParallelism());
    StreamExecutionEnvironment streamEnv = stream.getExecutionEnvironment();
    boolean checkpointed = checkpointed(streamEnv);
    boolean restartable = Restarts.enabled(streamEnv.getConfiguration());
    CloseableIterator<byte[]> bytes = collect(encoded, restartable, checkpointed);
    StreamExecutionEnvironment env = stream.getExecutionEnvironment();
    SavepointRestore.prepare(env);
    JobClient client = env.executeAsync(jobName);
    return new ResultRecords(
        client,
        bytes,
        (BatchSerializer) type.createSerializer(new SerializerConfigImpl()),
        allocator,
        restartable && !checkpointed,
        ClientHeartbeat.start(client, env.getConfiguration()));
  }

  /** Whether {@code env} runs a STREAMING job with checkpoints. */
  private static boolean checkpointed(StreamExecutionEnvironment env) {
    return env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
            == RuntimeExecutionMode.STREAMING
        && env.getCheckpointConfig().isCheckpointingEnabled();
  }

  /**
   * What {@code DataStream.collectAsync()} sets up (Flink's collect sink, its coordinator and the
   * client-side fetcher), except that the client polls for results every {@value #POLL_MILLIS} ms
   * instead of sleeping Flink's fixed 100 ms after every empty poll: that sleep was most of a small
   * query's wall time (benchmarks/README.md, fixed cost). The buffer is the one Flink uses without
   * checkpointing (batch jobs never checkpoint); when the job may restart, it tolerates a restarted
   * sink (it starts over from the new sink's first record) and {@link ResultCommits} drops what the
   * reader has seen already. A checkpointed (streaming) job's results use Flink's checkpointed
   * buffer instead: a result becomes visible once the checkpoint after it has completed, and a
   * restart from a checkpoint resends nothing the reader has seen, so every row reaches it exactly
   * once without waiting for a task's end (which a stream never reaches).
   */
  private static CloseableIterator<byte[]> collect(
      DataStream<byte[]> encoded, boolean restartable, boolean checkpointed) {
    StreamExecutionEnvironment env = encoded.getExecutionEnvironment();
    TypeSerializer<byte[]> serializer =
        encoded.getType().createSerializer(env.getConfig().getSerializerConfig());
    String accumulatorName = "quiverResult_" + UUID.randomUUID();
    CollectSinkOperatorFactory<byte[]> factory =
        new CollectSinkOperatorFactory<>(
            serializer,
            accumulatorName,
            env.getConfiguration().get(CollectSinkOperatorFactory.MAX_BATCH_SIZE),
            env.getConfiguration().get(CollectSinkOperatorFactory.SOCKET_TIMEOUT));
    CollectStreamSink<byte[]> sink = new CollectStreamSink<>(encoded, factory);
    sink.name(SavepointRestore.RESULT_SINK_NAME);
    // Random, new for every job: a job restored from a savepoint starts its result sink empty
    // (SavepointRestore says why).
    String uid = SavepointRestore.resultSinkUid();
    sink.uid(uid);
    CollectResultIterator<byte[]> iterator =
        new CollectResultIterator<>(
            checkpointed
                ? new CheckpointedCollectResultBuffer<>(serializer)
                : new UncheckpointedCollectResultBuffer<>(serializer, restartable),
            uid,
            accumulatorName,
            POLL_MILLIS);
    env.addOperator(sink.getTransformation());
    env.registerCollectIterator(iterator);
    return iterator;
  }
}
