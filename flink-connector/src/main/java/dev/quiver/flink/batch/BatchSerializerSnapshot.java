package dev.quiver.flink.batch;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * What Flink stores about a {@link BatchSerializer} to check that bytes written by one job can be
 * read by another: the edge's schema and compression. Every batch records its own codec in its IPC
 * metadata, so a different compression still reads as is; a different schema does not.
 */
public final class BatchSerializerSnapshot implements TypeSerializerSnapshot<BatchRecord> {
  private static final int VERSION = 1;

  private BatchSchema schema;
  private BatchCompression compression;
  private String edge;

  /** For Flink's reflective instantiation before {@link #readSnapshot}. */
  public BatchSerializerSnapshot() {}

  BatchSerializerSnapshot(BatchSchema schema, BatchCompression compression, String edge) {
    this.schema = schema;
    this.compression = compression;
    this.edge = edge;
  }

  @Override
  public int getCurrentVersion() {
    return VERSION;
  }

  @Override
  public void writeSnapshot(DataOutputView out) throws IOException {
    byte[] bytes = schema.bytes();
    out.writeInt(bytes.length);
    out.write(bytes);
    out.writeUTF(compression.name());
    out.writeUTF(edge);
  }

  @Override
  public void readSnapshot(int readVersion, DataInputView in, ClassLoader userCodeClassLoader)
      throws IOException {
    if (readVersion != VERSION) {
      throw new IOException("unsupported BatchSerializer snapshot version " + readVersion);
    }
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    schema = BatchSchema.fromBytes(bytes);
    compression = BatchCompression.valueOf(in.readUTF());
    edge = in.readUTF();
  }

  @Override
  public TypeSerializer<BatchRecord> restoreSerializer() {
    return new BatchSerializer(schema, compression, edge);
  }

  @Override
  public TypeSerializerSchemaCompatibility<BatchRecord> resolveSchemaCompatibility(
      TypeSerializerSnapshot<BatchRecord> oldSnapshot) {
    if (!(oldSnapshot instanceof BatchSerializerSnapshot)) {
      return TypeSerializerSchemaCompatibility.incompatible();
    }
    BatchSerializerSnapshot old = (BatchSerializerSnapshot) oldSnapshot;
    return old.schema.schema().equals(schema.schema())
        ? TypeSerializerSchemaCompatibility.compatibleAsIs()
        : TypeSerializerSchemaCompatibility.incompatible();
  }
}
