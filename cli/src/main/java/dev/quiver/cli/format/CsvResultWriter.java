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
 * CSV as scripts read it: a header row of the column names, then one line per row, fields separated
 * by commas, lines ended by {@code \n}. Quoting follows RFC 4180: a field containing a comma, a
 * double quote, CR or LF is enclosed in double quotes and its quotes are doubled. NULL is an empty
 * field; an empty string is {@code ""}, so that the two stay apart. Values are written as {@link
 * ArrowText} gives them (decimals with their declared scale, dates {@code YYYY-MM-DD}, timestamps
 * ISO-8601, doubles as {@link Double#toString}, booleans {@code true}/{@code false}).
 *
 * <pre>
 *   id,name,price,shipped
 *   1,"Smith, ""Jr.""",1234.50,1998-12-01
 *   2,,0.00,
 * </pre>
 */
public final class CsvResultWriter implements ResultWriter {
  private final Writer out;

  public CsvResultWriter(Writer out) {
    this.out = requireNonNull(out, "out is null");
  }

  @Override
  public void begin(Schema schema) throws IOException {
    List<Field> fields = schema.getFields();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      field(fields.get(i).getName());
    }
    out.write('\n');
  }

  @Override
  public void write(VectorSchemaRoot batch) throws IOException {
    List<FieldVector> vectors = batch.getFieldVectors();
    int rows = batch.getRowCount();
    for (int row = 0; row < rows; row++) {
      for (int i = 0; i < vectors.size(); i++) {
        if (i > 0) {
          out.write(',');
        }
        FieldVector vector = vectors.get(i);
        if (!vector.isNull(row)) {
          field(ArrowText.text(vector, row));
        }
      }
      out.write('\n');
    }
  }

  @Override
  public void end() {}

  private void field(String text) throws IOException {
    if (!needsQuotes(text)) {
      out.write(text);
      return;
    }
    out.write('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        out.write('"');
      }
      out.write(c);
    }
    out.write('"');
  }

  /** Empty (to tell it from NULL), or holding a comma, quote, CR or LF. */
  static boolean needsQuotes(String text) {
    if (text.isEmpty()) {
      return true;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ',' || c == '"' || c == '\n' || c == '\r') {
        return true;
      }
    }
    return false;
  }
}
