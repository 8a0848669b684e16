package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Just enough of Thrift's compact protocol to walk a Parquet footer: structs are read field by
 * field, and fields a caller does not want are skipped by type. Malformed input throws {@link
 * IllegalStateException} (or a buffer exception), which callers turn into an invalid-file error.
 *
 * <p>Wire format: a field header byte holds the field-id delta (high nibble, 0 means a zigzag
 * varint id follows) and the type (low nibble); integers are zigzag varints, binaries a varint
 * length and the bytes, lists a header byte with the size (15 means a varint size follows) and the
 * element type.
 */
final class ThriftCompactReader {
  static final int STOP = 0;
  static final int BOOLEAN_TRUE = 1;
  static final int BOOLEAN_FALSE = 2;
  static final int BYTE = 3;
  static final int I16 = 4;
  static final int I32 = 5;
  static final int I64 = 6;
  static final int DOUBLE = 7;
  static final int BINARY = 8;
  static final int LIST = 9;
  static final int SET = 10;
  static final int MAP = 11;
  static final int STRUCT = 12;

  private static final int MAX_DEPTH = 64;

  private final ByteBuffer buffer;
  private int fieldType;
  private int depth;

  ThriftCompactReader(ByteBuffer buffer) {
    this.buffer = requireNonNull(buffer, "buffer is null").slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The visitor of one struct's fields. */
  interface FieldHandler {
    /** Reads field {@code id} of {@code type}, or calls {@link #skip} for an unwanted field. */
    void field(short id, int type);
  }

  /** Reads one struct, passing each field to {@code handler}. */
  void readStruct(FieldHandler handler) {
    if (++depth > MAX_DEPTH) {
      throw new IllegalStateException("Thrift structs nested too deeply");
    }
    short lastId = 0;
    while (true) {
      int header = buffer.get() & 0xff;
      int type = header & 0x0f;
      if (type == STOP) {
        break;
      }
      int delta = header >>> 4;
      short id = delta == 0 ? (short) zigzag(varint()) : (short) (lastId + delta);
      lastId = id;
      fieldType = type;
      handler.field(id, type);
    }
    depth--;
  }

  /** The value of a boolean field: compact Thrift keeps it in the field header. */
  boolean readBoolField() {
    return fieldType == BOOLEAN_TRUE;
  }

  int readI32() {
    return (int) zigzag(varint());
  }

  long readI64() {
    return zigzag(varint());
  }

  byte[] readBinary() {
    int length = (int) varint();
    if (length < 0 || length > buffer.remaining()) {
      throw new IllegalStateException("Thrift binary of " + length + " bytes past the end");
    }
    byte[] bytes = new byte[length];
    buffer.get(bytes);
    return bytes;
  }

  /** Reads a list header and returns its size; elements follow with {@link #listElementType}. */
  int readListHeader() {
    int header = buffer.get() & 0xff;
    listElementType = header & 0x0f;
    int size = header >>> 4;
    return size == 15 ? (int) varint() : size;
  }

  private int listElementType;

  int listElementType() {
    return listElementType;
  }

  /** Skips the value of the current field, of {@code type}. */
  void skip(int type) {
    skipValue(type, false);
  }

  /** Skips one list element of {@code type}. */
  void skipElement(int type) {
    skipValue(type, true);
  }

  private void skipValue(int type, boolean element) {
    switch (type) {
      case BOOLEAN_TRUE, BOOLEAN_FALSE -> {
        // A boolean field lives in its header; a boolean list element takes one byte.
        if (element) {
          buffer.get();
        }
      }
      case BYTE -> buffer.get();
      case I16, I32, I64 -> varint();
      case DOUBLE -> buffer.position(buffer.position() + 8);
      case BINARY -> readBinary();
      case LIST, SET -> {
        int size = readListHeader();
        int elementType = listElementType;
        for (int i = 0; i < size; i++) {
          skipValue(elementType, true);
        }
      }
      case MAP -> {
        int size = (int) varint();
        if (size > 0) {
          int types = buffer.get() & 0xff;
          for (int i = 0; i < size; i++) {
            skipValue(types >>> 4, true);
            skipValue(types & 0x0f, true);
          }
        }
      }
      case STRUCT -> readStruct((id, fieldType) -> skip(fieldType));
      default -> throw new IllegalStateException("unknown Thrift type " + type);
    }
  }

  private long varint() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = buffer.get() & 0xff;
      result |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IllegalStateException("Thrift varint longer than 10 bytes");
  }

  private static long zigzag(long n) {
    return (n >>> 1) ^ -(n & 1);
  }
}
