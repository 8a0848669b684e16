package dev.quiver.cli.tpcds;

import static java.util.Objects.requireNonNull;

import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schemas of the 24 TPC-DS tables, from io.trino.tpcds's column metadata: the spec's
 * column names and types. Every column is nullable (dsdgen leaves a share of most non-key columns
 * NULL).
 *
 * <table>
 *   <caption>TPC-DS column type to Arrow type</caption>
 *   <tr><th>TPC-DS (io.trino.tpcds)</th><th>SQL</th><th>Arrow</th><th>examples</th></tr>
 *   <tr><td>identifier</td><td>BIGINT</td><td>int64</td><td>ss_item_sk, d_date_sk</td></tr>
 *   <tr><td>integer</td><td>INTEGER</td><td>int32</td><td>ss_quantity, d_year</td></tr>
 *   <tr><td>decimal(p,s)</td><td>DECIMAL(p,s)</td><td>decimal128(p,s)</td><td>ss_net_paid
 *       (7,2), ca_gmt_offset (5,2)</td></tr>
 *   <tr><td>date</td><td>DATE</td><td>date32</td><td>d_date, i_rec_start_date</td></tr>
 *   <tr><td>char(n), varchar(n)</td><td>VARCHAR</td><td>utf8</td><td>i_item_id,
 *       c_last_name</td></tr>
 * </table>
 *
 * <p>{@code dbgen_version} (the generator's own version row, with a TIME column) is not one of the
 * 24 tables and is not generated.
 */
public final class TpcdsSchemas {
  private TpcdsSchemas() {}

  /** The 24 TPC-DS tables, in io.trino.tpcds's order (parents before their returns tables). */
  public static List<Table> tables() {
    List<Table> tables = new ArrayList<>();
    for (Table table : Table.getBaseTables()) {
      if (table != Table.DBGEN_VERSION) {
        tables.add(table);
      }
    }
    return tables;
  }

  /** The schema of {@code table}. */
  public static Schema schema(Table table) {
    requireNonNull(table, "table is null");
    List<Field> fields = new ArrayList<>();
    for (Column column : table.getColumns()) {
      fields.add(new Field(column.getName(), FieldType.nullable(type(column.getType())), null));
    }
    return new Schema(fields);
  }

  /** The Arrow type of a column of type {@code type}. */
  public static ArrowType type(ColumnType type) {
    return switch (type.getBase()) {
      case IDENTIFIER -> new ArrowType.Int(64, true);
      case INTEGER -> new ArrowType.Int(32, true);
      case DECIMAL ->
          new ArrowType.Decimal(
              type.getPrecision().orElseThrow(), type.getScale().orElseThrow(), 128);
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case CHAR, VARCHAR -> ArrowType.Utf8.INSTANCE;
      case TIME ->
          throw new IllegalArgumentException("TIME columns (dbgen_version) are not generated");
    };
  }
}
