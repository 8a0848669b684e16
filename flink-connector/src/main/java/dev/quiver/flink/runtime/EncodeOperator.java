package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.flink.batch.BatchTypeInfo;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Encodes each data batch as its wire bytes, so results can leave the job through sinks that know
 * nothing of Arrow (Flink's collect sink): no task after this one needs an Arrow allocator, and the
 * bytes are decoded once, by the reader, into the reader's memory.
 */
public final class EncodeOperator extends ArrowOperator<byte[]>
    implements OneInputStreamOperator<BatchRecord, byte[]> {
  private static final long serialVersionUID = 1L;

  private final BatchTypeInfo type;
  private transient BatchSerializer serializer;
  private transient DataOutputSerializer buffer;
  private transient StreamRecord<byte[]> reuse;

  public EncodeOperator(BatchTypeInfo type) {
    this.type = requireNonNull(type, "type is null");
  }

  @Override
  public void open() throws Exception {
    super.open();
    serializer = (BatchSerializer) type.createSerializer(new SerializerConfigImpl());
    buffer = new DataOutputSerializer(64 << 10);
    reuse = new StreamRecord<>(null);
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) throws Exception {
    try (BatchRecord record = element.getValue()) {
      if (!record.isData()) {
        return;
      }
      buffer.clear();
      serializer.serialize(record, buffer);
      output.collect(reuse.replace(buffer.getCopyOfBuffer()));
    }
  }
}
