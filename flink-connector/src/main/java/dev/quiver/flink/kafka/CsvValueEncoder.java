package dev.quiver.flink.kafka;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Encodes a row as one CSV line, as {@link CsvValueDecoder} reads it: fields in schema order, no
 * line break at the end, NULL as an empty unquoted field; a VARCHAR is quoted with {@code "} when
 * it is empty or holds the delimiter, a quote or a line break (quotes doubled inside), any other
 * value is its text ({@link ValueEncoder}), which never needs quoting.
 */
final class CsvValueEncoder extends ValueEncoder {
  private static final byte QUOTE = '"';

  private final byte delimiter;

  CsvValueEncoder(Schema schema, char delimiter) {
    super(schema);
    if (delimiter > 127 || delimiter == '"' || delimiter == '\n' || delimiter == '\r') {
      throw new IllegalArgumentException(
          "the CSV delimiter must be ASCII, not a quote or line break");
    }
    this.delimiter = (byte) delimiter;
  }

  @Override
  byte[] encode(int row) {
    out.reset();
    for (int c = 0; c < kinds.length; c++) {
      if (c > 0) {
        out.write(delimiter);
      }
      if (vectors[c].isNull(row)) {
        continue;
      }
      if (kinds[c] == ValueDecoder.Kind.VARCHAR) {
        varchar(utf8(c, row));
      } else {
        // Numbers, booleans, dates and times are ASCII without delimiters or quotes.
        CharSequence text = text(c, row);
        for (int i = 0; i < text.length(); i++) {
          out.write(text.charAt(i));
        }
      }
    }
    return out.toByteArray();
  }

  // Bytes of UTF-8 never hold an ASCII byte inside a multi-byte character: scanned as bytes.
  private void varchar(byte[] utf8) {
    boolean quote = utf8.length == 0;
    for (int i = 0; i < utf8.length && !quote; i++) {
      byte b = utf8[i];
      quote = b == delimiter || b == QUOTE || b == '\n' || b == '\r';
    }
    if (!quote) {
      out.writeBytes(utf8);
      return;
    }
    out.write(QUOTE);
    for (byte b : utf8) {
      if (b == QUOTE) {
        out.write(QUOTE);
      }
      out.write(b);
    }
    out.write(QUOTE);
  }
}
