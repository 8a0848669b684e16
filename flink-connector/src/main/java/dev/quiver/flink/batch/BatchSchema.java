package dev.quiver.flink.batch;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An Arrow {@link Schema} that Java serialization can carry inside a Flink job graph: it travels as
 * the schema's IPC flatbuffer bytes and is decoded once per JVM instance.
 */
final class BatchSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  private final byte[] bytes;
  private transient Schema schema;

  private BatchSchema(byte[] bytes, Schema schema) {
    this.bytes = bytes;
    this.schema = schema;
  }

  static BatchSchema of(Schema schema) {
    requireNonNull(schema, "schema is null");
    return new BatchSchema(schema.serializeAsMessage(), schema);
  }

  static BatchSchema fromBytes(byte[] bytes) {
    return new BatchSchema(bytes.clone(), null);
  }

  byte[] bytes() {
    return bytes.clone();
  }

  Schema schema() {
    if (schema == null) {
      schema = Schema.deserializeMessage(ByteBuffer.wrap(bytes));
    }
    return schema;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BatchSchema && Arrays.equals(((BatchSchema) o).bytes, bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return schema().toString();
  }
}
