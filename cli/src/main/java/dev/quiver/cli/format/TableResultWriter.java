package dev.quiver.cli.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The result as a {@link TextTable} for people, followed by the row count:
 *
 * <pre>
 *   l_returnflag | l_linestatus |   sum_qty | count_order
 *   -------------+--------------+-----------+------------
 *   A            | F            | 380456.00 |       14876
 *   N            | O            |      NULL |          12
 *   (2 rows)
 * </pre>
 *
 * Numbers (integers, decimals, floating point) are right-aligned, NULL is {@code NULL}, values are
 * {@link ArrowText}'s text. The widths depend on every row, so the cells are kept (as strings)
 * until {@link #end}: use CSV or JSON for large results, or keep only the first rows ({@code
 * maxRows}, as {@code quiver shell} does), which ends with {@code (N rows, the first M shown)}.
 */
public final class TableResultWriter implements ResultWriter {
  private final Writer out;
  private final long maxRows;
  private TextTable table;
  private int columns;
  private long rows;

  /** A table of every row. */
  public TableResultWriter(Writer out) {
    this(out, Long.MAX_VALUE);
  }

  /** A table of the first {@code maxRows} rows; the others are only counted. */
  public TableResultWriter(Writer out, long maxRows) {
    this.out = requireNonNull(out, "out is null");
    if (maxRows < 0) {
      throw new IllegalArgumentException("maxRows is negative: " + maxRows);
    }
    this.maxRows = maxRows;
  }

  @Override
  public void begin(Schema schema) {
    List<Field> fields = schema.getFields();
    columns = fields.size();
    boolean[] right = new boolean[columns];
    for (int i = 0; i < columns; i++) {
      right[i] = ArrowText.kind(fields.get(i).getType()) == ArrowText.Kind.NUMBER;
    }
    table = new TextTable(fields.stream().map(Field::getName).toList(), right);
  }

  @Override
  public void write(VectorSchemaRoot batch) {
    List<FieldVector> vectors = batch.getFieldVectors();
    int shown = (int) Math.max(0, Math.min(batch.getRowCount(), maxRows - rows));
    rows += batch.getRowCount();
    for (int row = 0; row < shown; row++) {
      String[] cells = new String[columns];
      for (int i = 0; i < columns; i++) {
        FieldVector vector = vectors.get(i);
        cells[i] = vector.isNull(row) ? "NULL" : ArrowText.text(vector, row);
      }
      table.add(cells);
    }
  }

  @Override
  public void end() throws IOException {
    table.render(out);
    String count = rows == 1 ? "(1 row" : String.format(Locale.ROOT, "(%d rows", rows);
    out.write(
        rows > table.size()
            ? count + String.format(Locale.ROOT, ", the first %d shown)\n", table.size())
            : count + ")\n");
  }
}
