package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.flink.batch.BatchTypeInfo;
import java.io.IOException;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Encodes each data batch as its wire bytes, so results can leave the job through sinks that know
 * nothing of Arrow (Flink's collect sink): no task after this one needs an Arrow allocator, and the
 * bytes are decoded once, by the reader, into the reader's memory.
 *
 * <p>Each batch becomes a {@link ResultFrame} that names this task, its execution attempt and the
 * batch's position in the task's output, and the end of the input one more frame that says how many
 * came before it; the reader uses them to hand out every row exactly once when Flink restarts tasks
 * ({@link ResultCommits}). End-of-partition markers from upstream are dropped.
 */
public final class EncodeOperator extends ArrowOperator<byte[]>
    implements OneInputStreamOperator<BatchRecord, byte[]>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final BatchTypeInfo type;
  private transient BatchSerializer serializer;
  private transient DataOutputSerializer buffer;
  private transient StreamRecord<byte[]> reuse;
  private transient int attempt;
  private transient long sent;

  public EncodeOperator(BatchTypeInfo type) {
    this.type = requireNonNull(type, "type is null");
  }

  @Override
  public void open() throws Exception {
    super.open();
    serializer = (BatchSerializer) type.createSerializer(new SerializerConfigImpl());
    buffer = new DataOutputSerializer(64 << 10);
    reuse = new StreamRecord<>(null);
    attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    sent = 0;
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) throws Exception {
    try (BatchRecord record = element.getValue()) {
      if (!record.isData()) {
        return;
      }
      buffer.clear();
      ResultFrame.writeHeader(buffer, false, partition(), attempt, sent);
      serializer.serialize(record, buffer);
      output.collect(reuse.replace(buffer.getCopyOfBuffer()));
      sent++;
    }
  }

  @Override
  public void endInput() throws IOException {
    buffer.clear();
    ResultFrame.writeHeader(buffer, true, partition(), attempt, sent);
    output.collect(reuse.replace(buffer.getCopyOfBuffer()));
  }
}
