package dev.quiver.flink.batch;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information of the {@link BatchRecord}s on one edge. It carries the edge's Arrow
 * schema, so the schema crosses the wire once per edge and never once per batch, and it makes Flink
 * use {@link BatchSerializer} instead of falling back to Kryo.
 */
public final class BatchTypeInfo extends TypeInformation<BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final BatchSchema schema;
  private final BatchCompression compression;
  private final String edge;

  private BatchTypeInfo(BatchSchema schema, BatchCompression compression, String edge) {
    this.schema = schema;
    this.compression = compression;
    this.edge = edge;
  }

  /**
   * Type information of an edge named {@code edge} (it appears in errors) that carries batches of
   * {@code schema}, compressed with {@code compression}.
   */
  public static BatchTypeInfo of(Schema schema, BatchCompression compression, String edge) {
    return new BatchTypeInfo(
        BatchSchema.of(schema),
        requireNonNull(compression, "compression is null"),
        requireNonNull(edge, "edge is null"));
  }

  public static BatchTypeInfo of(Schema schema, String edge) {
    return of(schema, BatchCompression.NONE, edge);
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

  /** The same edge with another compression. */
  public BatchTypeInfo withCompression(BatchCompression compression) {
    return new BatchTypeInfo(schema, requireNonNull(compression, "compression is null"), edge);
  }

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<BatchRecord> getTypeClass() {
    return BatchRecord.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<BatchRecord> createSerializer(SerializerConfig config) {
    return new BatchSerializer(schema, compression, edge);
  }

  @Override
  public String toString() {
    return "Batch<" + edge + ": " + schema + ", " + compression + ">";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BatchTypeInfo
        && ((BatchTypeInfo) o).canEqual(this)
        && ((BatchTypeInfo) o).schema.equals(schema)
        && ((BatchTypeInfo) o).compression == compression
        && ((BatchTypeInfo) o).edge.equals(edge);
  }

  @Override
  public int hashCode() {
    return schema.hashCode() * 31 + compression.hashCode();
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof BatchTypeInfo;
  }
}
