package dev.quiver.flink.batch;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.TaskAllocators;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of {@link BatchRecord}s of one edge: Arrow IPC record-batch bodies, never Kryo.
 *
 * <p>Batches that are read are allocated from the {@linkplain TaskAllocators#current() allocator
 * bound to the reading thread} (the receiving task's), and belong to whoever receives them. The
 * serializer holds scratch space and a codec, so Flink must {@link #duplicate()} it per thread.
 */
public final class BatchSerializer extends TypeSerializer<BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final BatchSchema schema;
  private final BatchCompression compression;
  private final String edge;
  private transient BatchWireFormat format;

  public BatchSerializer(Schema schema, BatchCompression compression, String edge) {
    this(BatchSchema.of(schema), compression, edge);
  }

  BatchSerializer(BatchSchema schema, BatchCompression compression, String edge) {
    this.schema = requireNonNull(schema, "schema is null");
    this.compression = requireNonNull(compression, "compression is null");
    this.edge = requireNonNull(edge, "edge is null");
  }

  public Schema schema() {
    return schema.schema();
  }

  public BatchCompression compression() {
    return compression;
  }

  public String edge() {
    return edge;
  }

  private BatchWireFormat format() {
    if (format == null) {
      format = new BatchWireFormat(schema.schema(), compression, edge);
    }
    return format;
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<BatchRecord> duplicate() {
    return new BatchSerializer(schema, compression, edge);
  }

  /** An end-of-partition marker of partition 0: a record has no meaningful empty value. */
  @Override
  public BatchRecord createInstance() {
    return BatchRecord.endOfPartition(0, BatchRecord.NO_CHANNEL);
  }

  /**
   * A record that shares {@code from}'s buffers (batches are immutable once emitted), accounted to
   * the current task's allocator. Only Flink's copying chains call this; Quiver jobs reuse objects.
   */
  @Override
  public BatchRecord copy(BatchRecord from) {
    if (!from.isData()) {
      return BatchRecord.endOfPartition(from.partition(), from.channel());
    }
    return BatchRecord.data(
        from.partition(),
        from.channel(),
        BatchTransfer.share(from.batch(), TaskAllocators.current()));
  }

  @Override
  public BatchRecord copy(BatchRecord from, BatchRecord reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(BatchRecord record, DataOutputView target) throws IOException {
    format().write(record, target);
  }

  @Override
  public BatchRecord deserialize(DataInputView source) throws IOException {
    return format().read(source, TaskAllocators.current());
  }

  /** Reads one record into memory of {@code allocator} (for readers outside any task). */
  public BatchRecord deserialize(DataInputView source, BufferAllocator allocator)
      throws IOException {
    return format().read(source, allocator);
  }

  @Override
  public BatchRecord deserialize(BatchRecord reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    format().copy(source, target);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BatchSerializer
        && ((BatchSerializer) o).schema.equals(schema)
        && ((BatchSerializer) o).compression == compression
        && ((BatchSerializer) o).edge.equals(edge);
  }

  @Override
  public int hashCode() {
    return schema.hashCode() * 31 + compression.hashCode();
  }

  @Override
  public TypeSerializerSnapshot<BatchRecord> snapshotConfiguration() {
    return new BatchSerializerSnapshot(schema, compression, edge);
  }

  @Override
  public String toString() {
    return "BatchSerializer[" + edge + ", " + compression + ", " + schema + "]";
  }
}
