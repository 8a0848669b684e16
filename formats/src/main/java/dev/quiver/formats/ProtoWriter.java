package dev.quiver.formats;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A minimal protobuf encoder (varint and length-delimited fields), enough to build the Substrait
 * messages of {@link SubstraitFilter} without the protobuf and Substrait Java libraries.
 */
final class ProtoWriter {
  private static final int VARINT = 0;
  private static final int LENGTH_DELIMITED = 2;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** An int32, int64, uint32, bool or enum field (negative values take ten bytes, as protobuf). */
  ProtoWriter varint(int field, long value) {
    tag(field, VARINT);
    writeVarint(value);
    return this;
  }

  ProtoWriter bytes(int field, byte[] value) {
    tag(field, LENGTH_DELIMITED);
    writeVarint(value.length);
    out.write(value, 0, value.length);
    return this;
  }

  ProtoWriter string(int field, String value) {
    return bytes(field, value.getBytes(StandardCharsets.UTF_8));
  }

  ProtoWriter message(int field, ProtoWriter value) {
    return bytes(field, value.toByteArray());
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }

  private void tag(int field, int wireType) {
    writeVarint(((long) field << 3) | wireType);
  }

  private void writeVarint(long value) {
    while ((value & ~0x7FL) != 0) {
      out.write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }
}
