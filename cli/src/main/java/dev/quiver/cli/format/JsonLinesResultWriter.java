package dev.quiver.cli.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * JSON Lines: one JSON object per row, on its own line, keys in column order, no spaces.
 *
 * <pre>
 *   {"id":1,"name":"Smith, \"Jr.\"","price":1234.50,"shipped":"1998-12-01","ok":true}
 *   {"id":2,"name":null,"price":0.00,"shipped":null,"ok":false}
 * </pre>
 *
 * Integers and decimals are JSON numbers (decimals with their declared scale, never an exponent);
 * REAL and DOUBLE are numbers as {@link Double#toString} writes them ({@code 1.0E7} is valid JSON),
 * except NaN and the infinities, which JSON has no number for: they are the strings {@code "NaN"},
 * {@code "Infinity"}, {@code "-Infinity"}. Booleans are {@code true}/{@code false}, NULL is {@code
 * null}, everything else (text, dates, timestamps, intervals) a string with {@link ArrowText}'s
 * text. Strings are escaped per RFC 8259: quote, backslash and the control characters below U+0020;
 * other characters are written as they are (the output is UTF-8). A result with two columns of the
 * same name gives objects with a repeated key.
 */
public final class JsonLinesResultWriter implements ResultWriter {
  private final Writer out;
  private String[] keys; // "name": per column, escaped once
  private ArrowText.Kind[] kinds;

  public JsonLinesResultWriter(Writer out) {
    this.out = requireNonNull(out, "out is null");
  }

  @Override
  public void begin(Schema schema) {
    List<Field> fields = schema.getFields();
    keys = new String[fields.size()];
    kinds = new ArrowText.Kind[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      StringBuilder key = new StringBuilder();
      quote(fields.get(i).getName(), key);
      keys[i] = key.append(':').toString();
      kinds[i] = ArrowText.kind(fields.get(i).getType());
    }
  }

  @Override
  public void write(VectorSchemaRoot batch) throws IOException {
    List<FieldVector> vectors = batch.getFieldVectors();
    StringBuilder line = new StringBuilder(64 * vectors.size());
    for (int row = 0; row < batch.getRowCount(); row++) {
      line.setLength(0);
      line.append('{');
      for (int i = 0; i < vectors.size(); i++) {
        if (i > 0) {
          line.append(',');
        }
        line.append(keys[i]);
        FieldVector vector = vectors.get(i);
        if (vector.isNull(row)) {
          line.append("null");
        } else {
          value(ArrowText.text(vector, row), kinds[i], line);
        }
      }
      line.append("}\n");
      out.append(line);
    }
  }

  @Override
  public void end() {}

  private static void value(String text, ArrowText.Kind kind, StringBuilder line) {
    boolean bare =
        kind == ArrowText.Kind.BOOLEAN
            || (kind == ArrowText.Kind.NUMBER && !text.equals("NaN") && !text.endsWith("Infinity"));
    if (bare) {
      line.append(text);
    } else {
      quote(text, line);
    }
  }

  /** Appends {@code text} as a JSON string: quoted, escaped per RFC 8259. */
  static void quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
