package dev.quiver.benchmarks.tpch;

import dev.quiver.cli.tpch.TpchSchemas;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.util.List;
import java.util.StringJoiner;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The eight TPC-H tables for Flink SQL: the filesystem connector with the Parquet format over the
 * generator's directories, with the column types of {@link TpchSchemas} (BIGINT keys, INT for the
 * four integer columns, DECIMAL(15,2), DATE, STRING), all NOT NULL, and the primary keys Quiver's
 * catalog declares, NOT ENFORCED like there.
 *
 * <p>Each table is a view over a file table, {@code <table>_files}, that declares the decimal
 * columns as DECIMAL({@value #READ_PRECISION}, 2); the view casts them back to DECIMAL(15,2), so
 * queries see the specification's types. The reason is a Flink bug: its vectorized Parquet reader
 * reads a DECIMAL of precision at most 18 into a long vector, and when the column is a
 * dictionary-encoded FIXED_LEN_BYTE_ARRAY (as Arrow's Parquet writer stores decimals) it hands the
 * binary dictionary to that vector, which fails with {@code UnsupportedOperationException:
 * PlainValuesDictionary$PlainBinaryDictionary} ({@code Dictionary.decodeToLong}) on the first row.
 * Read at precision 19, the column goes through Flink's byte-array decimal path, which decodes the
 * dictionary correctly; the cast costs Flink a little per value at the scan.
 */
final class FlinkSqlTables {
  /** The precision at which Flink reads the files' DECIMAL(15,2) columns (see above). */
  static final int READ_PRECISION = 19;

  private FlinkSqlTables() {}

  /** The statements that declare {@code table} over {@code dir/<table name>}. */
  static List<String> ddl(TpchTable<?> table, Path dir) {
    return ddl(table.getTableName(), table, dir.resolve(table.getTableName()));
  }

  /**
   * The statements that declare {@code name} with {@code table}'s columns over the files of {@code
   * location}: the file table, then the view.
   */
  static List<String> ddl(String name, TpchTable<?> table, Path location) {
    String files = name + "_files";
    StringJoiner columns = new StringJoiner(",\n  ", "(\n  ", "");
    StringJoiner view = new StringJoiner(",\n  ", "CREATE VIEW " + name + " AS SELECT\n  ", "");
    for (TpchColumn<?> column : table.getColumns()) {
      String columnName = column.getColumnName();
      ArrowType type = TpchSchemas.type(column);
      if (type instanceof ArrowType.Decimal decimal) {
        columns.add(
            columnName + " DECIMAL(" + READ_PRECISION + ", " + decimal.getScale() + ") NOT NULL");
        view.add("CAST(" + columnName + " AS " + sqlType(type) + ") AS " + columnName);
      } else {
        columns.add(columnName + " " + sqlType(type) + " NOT NULL");
        view.add(columnName);
      }
    }
    StringJoiner key = new StringJoiner(", ", "PRIMARY KEY (", ") NOT ENFORCED");
    for (int index : primaryKey(table)) {
      key.add(table.getColumns().get(index).getColumnName());
    }
    columns.add(key.toString());
    String create =
        "CREATE TABLE "
            + files
            + " "
            + columns
            + "\n) WITH (\n  'connector' = 'filesystem',\n  'path' = '"
            + location.toUri()
            + "',\n  'format' = 'parquet'\n)";
    return List.of(create, view + "\nFROM " + files);
  }

  /**
   * The primary key columns (indexes) per the TPC-H specification, as Quiver's catalog has them.
   */
  static List<Integer> primaryKey(TpchTable<?> table) {
    return switch (table.getTableName()) {
      case "partsupp" -> List.of(0, 1); // ps_partkey, ps_suppkey
      case "lineitem" -> List.of(0, 3); // l_orderkey, l_linenumber
      default -> List.of(0);
    };
  }

  static String sqlType(ArrowType type) {
    if (type instanceof ArrowType.Int integer) {
      return integer.getBitWidth() == 64 ? "BIGINT" : "INT";
    }
    if (type instanceof ArrowType.Decimal decimal) {
      return "DECIMAL(" + decimal.getPrecision() + ", " + decimal.getScale() + ")";
    }
    if (type instanceof ArrowType.Date) {
      return "DATE";
    }
    if (type instanceof ArrowType.Utf8) {
      return "STRING";
    }
    throw new IllegalArgumentException("no Flink SQL type for " + type);
  }
}
