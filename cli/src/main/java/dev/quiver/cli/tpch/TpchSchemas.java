package dev.quiver.cli.tpch;

import static java.util.Objects.requireNonNull;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schemas of the TPC-H tables, with the spec's column names ({@code l_orderkey}, ...) and
 * types. Every column is NOT NULL.
 *
 * <table>
 *   <caption>TPC-H column type to Arrow type</caption>
 *   <tr><th>TPC-H (io.trino.tpch)</th><th>SQL</th><th>Arrow</th><th>examples</th></tr>
 *   <tr><td>identifier</td><td>BIGINT</td><td>int64</td><td>l_orderkey, c_nationkey</td></tr>
 *   <tr><td>integer</td><td>INTEGER</td><td>int32</td><td>p_size, ps_availqty, l_linenumber,
 *       o_shippriority</td></tr>
 *   <tr><td>decimal (money, quantity, rates)</td><td>DECIMAL(15,2)</td><td>decimal128(15,2)</td>
 *       <td>l_extendedprice, l_quantity, l_discount, c_acctbal</td></tr>
 *   <tr><td>date</td><td>DATE</td><td>date32</td><td>l_shipdate, o_orderdate</td></tr>
 *   <tr><td>text (fixed or variable)</td><td>VARCHAR</td><td>utf8</td><td>l_returnflag,
 *       c_comment</td></tr>
 * </table>
 */
public final class TpchSchemas {
  static final ArrowType BIGINT = new ArrowType.Int(64, true);
  static final ArrowType INTEGER = new ArrowType.Int(32, true);
  static final ArrowType DECIMAL = new ArrowType.Decimal(15, 2, 128);
  static final ArrowType DATE = new ArrowType.Date(DateUnit.DAY);
  static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;

  private TpchSchemas() {}

  /** The schema of {@code table}. */
  public static Schema schema(TpchTable<?> table) {
    requireNonNull(table, "table is null");
    List<Field> fields = new ArrayList<>();
    for (TpchColumn<?> column : table.getColumns()) {
      fields.add(new Field(column.getColumnName(), FieldType.notNullable(type(column)), null));
    }
    return new Schema(fields);
  }

  /** The Arrow type of {@code column}. */
  public static ArrowType type(TpchColumn<?> column) {
    return switch (column.getType().getBase()) {
      case IDENTIFIER -> BIGINT;
      case INTEGER -> INTEGER;
      case DOUBLE -> DECIMAL; // io.trino.tpch calls the spec's DECIMAL(15,2) columns DOUBLE
      case DATE -> DATE;
      case VARCHAR -> VARCHAR;
    };
  }
}
