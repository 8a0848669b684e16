package dev.quiver.formats;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Just enough of Thrift's compact protocol to write a Parquet footer without data (see {@link
 * EmptyFiles}); the counterpart of {@link ThriftCompactReader}. Fields must be written in
 * increasing id order within a struct.
 */
final class ThriftCompactWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final Deque<Short> lastIds = new ArrayDeque<>();
  private short lastId;

  ThriftCompactWriter i32(int id, int value) {
    fieldHeader(id, ThriftCompactReader.I32);
    varint(zigzag(value));
    return this;
  }

  ThriftCompactWriter i8(int id, int value) {
    fieldHeader(id, ThriftCompactReader.BYTE);
    out.write(value);
    return this;
  }

  ThriftCompactWriter i64(int id, long value) {
    fieldHeader(id, ThriftCompactReader.I64);
    varint(zigzag(value));
    return this;
  }

  ThriftCompactWriter bool(int id, boolean value) {
    fieldHeader(id, value ? ThriftCompactReader.BOOLEAN_TRUE : ThriftCompactReader.BOOLEAN_FALSE);
    return this;
  }

  ThriftCompactWriter string(int id, String value) {
    fieldHeader(id, ThriftCompactReader.BINARY);
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    varint(bytes.length);
    out.write(bytes, 0, bytes.length);
    return this;
  }

  /** Starts a struct-valued field; end it with {@link #endStruct}. */
  ThriftCompactWriter beginStruct(int id) {
    fieldHeader(id, ThriftCompactReader.STRUCT);
    return beginListElement();
  }

  /** Starts a list of {@code size} structs; write each with {@link #beginListElement}. */
  ThriftCompactWriter beginStructList(int id, int size) {
    fieldHeader(id, ThriftCompactReader.LIST);
    if (size < 15) {
      out.write((size << 4) | ThriftCompactReader.STRUCT);
    } else {
      out.write(0xf0 | ThriftCompactReader.STRUCT);
      varint(size);
    }
    return this;
  }

  /** Starts a struct that is a list element; end it with {@link #endStruct}. */
  ThriftCompactWriter beginListElement() {
    lastIds.push(lastId);
    lastId = 0;
    return this;
  }

  ThriftCompactWriter endStruct() {
    out.write(ThriftCompactReader.STOP);
    lastId = lastIds.pop();
    return this;
  }

  /** The bytes of a top-level struct whose fields were written (the final STOP included). */
  byte[] finishStruct() {
    out.write(ThriftCompactReader.STOP);
    return out.toByteArray();
  }

  private void fieldHeader(int id, int type) {
    int delta = id - lastId;
    if (delta > 0 && delta <= 15) {
      out.write((delta << 4) | type);
    } else {
      out.write(type);
      varint(zigzag(id));
    }
    lastId = (short) id;
  }

  private void varint(long value) {
    while ((value & ~0x7FL) != 0) {
      out.write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }

  private static long zigzag(long n) {
    return (n << 1) ^ (n >> 63);
  }
}
