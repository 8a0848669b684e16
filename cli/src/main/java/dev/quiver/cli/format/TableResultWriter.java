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
 * until {@link #end}: use CSV or JSON for large results.
 */
public final class TableResultWriter implements ResultWriter {
  private final Writer out;
  private TextTable table;
  private int columns;

  public TableResultWriter(Writer out) {
    this.out = requireNonNull(out, "out is null");
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
    for (int row = 0; row < batch.getRowCount(); row++) {
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
    out.write(table.size() == 1 ? "(1 row)\n" : "(" + table.size() + " rows)\n");
  }
}
