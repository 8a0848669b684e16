package dev.quiver.flink.kafka;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Decodes one CSV line per value, fields in schema order, straight from the value's bytes.
 *
 * <p>RFC 4180 quoting with {@code "} (a quoted field may hold the delimiter and doubled quotes); an
 * empty unquoted field is NULL and {@code ""} the empty string; a trailing line break is ignored;
 * the number of fields must be the number of columns. Delimiters and quotes are ASCII, which never
 * occurs inside a multi-byte UTF-8 character, so the line is split as bytes and VARCHAR fields are
 * copied as they are; other fields are parsed as text (see {@link TextValues}; booleans are {@code
 * true} / {@code false} in any case).
 */
final class CsvValueDecoder extends ValueDecoder {
  private static final byte QUOTE = '"';

  private final byte delimiter;
  private final Latin1 text = new Latin1();
  private byte[] unquoted = new byte[256];

  CsvValueDecoder(Schema schema, char delimiter) {
    super(schema);
    if (delimiter > 127 || delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
      throw new IllegalArgumentException(
          "the CSV delimiter must be ASCII, not a quote or line break");
    }
    this.delimiter = (byte) delimiter;
  }

  @Override
  void decode(byte[] value, int row) throws BadValue {
    int end = value.length;
    if (end > 0 && value[end - 1] == '\n') {
      end--;
    }
    if (end > 0 && value[end - 1] == '\r') {
      end--;
    }
    int columns = kinds.length;
    int c = 0;
    int pos = 0;
    while (true) {
      if (c == columns) {
        throw new BadValue(-1, "the line has more than " + columns + " fields");
      }
      if (pos < end && value[pos] == QUOTE) {
        int length = 0;
        pos++;
        while (true) {
          if (pos >= end) {
            throw new BadValue(c, "a quoted field has no closing quote");
          }
          byte b = value[pos++];
          if (b == QUOTE) {
            if (pos < end && value[pos] == QUOTE) {
              pos++; // a doubled quote is one quote
            } else {
              break;
            }
          }
          if (length == unquoted.length) {
            unquoted = java.util.Arrays.copyOf(unquoted, length * 2);
          }
          unquoted[length++] = b;
        }
        if (pos < end && value[pos] != delimiter) {
          throw new BadValue(c, "a quoted field is followed by text before the delimiter");
        }
        write(c, row, unquoted, 0, length);
      } else {
        int start = pos;
        while (pos < end && value[pos] != delimiter) {
          pos++;
        }
        if (pos > start) {
          write(c, row, value, start, pos);
        } // else: an empty unquoted field is NULL
      }
      c++;
      if (pos >= end) {
        break;
      }
      pos++; // the delimiter; a line ending in one has an empty last field
    }
    if (c != columns) {
      throw new BadValue(-1, "the line has " + c + " fields, the schema " + columns + " columns");
    }
    checkNotNull(row);
  }

  private void write(int c, int row, byte[] bytes, int from, int to) throws BadValue {
    if (kinds[c] == Kind.VARCHAR) {
      setText(c, row, bytes, from, to - from);
    } else {
      text.bytes = bytes;
      fromText(c, row, text, from, to);
    }
  }

  /** Bytes seen as characters, one per byte (enough for the ASCII text of numbers and times). */
  private static final class Latin1 implements CharSequence {
    byte[] bytes;

    @Override
    public int length() {
      return bytes.length;
    }

    @Override
    public char charAt(int index) {
      return (char) (bytes[index] & 0xFF);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new String(bytes, start, end - start, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
