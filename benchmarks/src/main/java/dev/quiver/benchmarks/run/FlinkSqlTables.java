package dev.quiver.benchmarks.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A workload's tables for Flink SQL: the filesystem connector with the Parquet format over the
 * generator's directories, with the column types of the workload's Arrow schemas (BIGINT, INT,
 * DECIMAL(p,s), DATE, STRING; NOT NULL where the schema says so), and the primary keys the workload
 * declares, NOT ENFORCED.
 *
 * <p>Each table is a view over a file table, {@code <table>_files}, that declares the decimal
 * columns of precision at most 18 as DECIMAL({@value #READ_PRECISION}, s); the view casts them back
 * to their own type, so queries see the specification's types. The reason is a Flink bug: its
 * vectorized Parquet reader reads a DECIMAL of precision at most 18 into a long vector, and when
 * the column is a dictionary-encoded FIXED_LEN_BYTE_ARRAY (as Arrow's Parquet writer stores
 * decimals) it hands the binary dictionary to that vector, which fails with {@code
 * UnsupportedOperationException: PlainValuesDictionary$PlainBinaryDictionary} ({@code
 * Dictionary.decodeToLong}) on the first row. Read at precision 19, the column goes through Flink's
 * byte-array decimal path, which decodes the dictionary correctly; the cast costs Flink a little
 * per value at the scan.
 */
final class FlinkSqlTables {
  /** The precision at which Flink reads the files' narrower DECIMAL columns (see above). */
  static final int READ_PRECISION = 19;

  private FlinkSqlTables() {}

  /** The statements that declare every table of {@code workload} over {@code dir/<table>}. */
  static List<String> ddl(Workload workload, Path dir) {
    List<String> statements = new ArrayList<>();
    for (Map.Entry<String, Schema> table : workload.tables().entrySet()) {
      String name = table.getKey();
      statements.addAll(ddl(name, table.getValue(), workload.primaryKey(name), dir.resolve(name)));
    }
    return statements;
  }

  /**
   * The statements that declare {@code name} with the columns of {@code schema} over the files of
   * {@code location}: the file table, then the view.
   */
  static List<String> ddl(String name, Schema schema, List<String> primaryKey, Path location) {
    String files = name + "_files";
    StringJoiner columns = new StringJoiner(",\n  ", "(\n  ", "");
    StringJoiner view = new StringJoiner(",\n  ", "CREATE VIEW " + name + " AS SELECT\n  ", "");
    for (Field field : schema.getFields()) {
      String column = field.getName();
      ArrowType type = field.getType();
      String notNull = field.isNullable() ? "" : " NOT NULL";
      if (readAsWiderDecimal(type)) {
        int scale = ((ArrowType.Decimal) type).getScale();
        columns.add(column + " DECIMAL(" + READ_PRECISION + ", " + scale + ")" + notNull);
        view.add("CAST(" + column + " AS " + sqlType(type) + ") AS " + column);
      } else {
        columns.add(column + " " + sqlType(type) + notNull);
        view.add(column);
      }
    }
    if (!primaryKey.isEmpty()) {
      columns.add("PRIMARY KEY (" + String.join(", ", primaryKey) + ") NOT ENFORCED");
    }
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
   * What the summary says about the decimal columns: {@code the DECIMAL(15,2) columns as
   * DECIMAL(19,2)}, or null when the workload has none Flink reads wider.
   */
  static String widenedDecimals(Workload workload) {
    Set<String> types = new LinkedHashSet<>();
    Set<Integer> scales = new LinkedHashSet<>();
    for (Schema schema : workload.tables().values()) {
      for (Field field : schema.getFields()) {
        if (readAsWiderDecimal(field.getType())) {
          ArrowType.Decimal decimal = (ArrowType.Decimal) field.getType();
          types.add("DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + ")");
          scales.add(decimal.getScale());
        }
      }
    }
    if (types.isEmpty()) {
      return null;
    }
    List<String> names = new ArrayList<>(types);
    String listed =
        names.size() == 1
            ? names.get(0)
            : String.join(", ", names.subList(0, names.size() - 1))
                + " and "
                + names.get(names.size() - 1);
    String wider =
        scales.size() == 1
            ? "DECIMAL(" + READ_PRECISION + "," + scales.iterator().next() + ")"
            : "DECIMAL(" + READ_PRECISION + ",s)";
    return "the " + listed + " columns as " + wider;
  }

  private static boolean readAsWiderDecimal(ArrowType type) {
    return type instanceof ArrowType.Decimal decimal && decimal.getPrecision() < READ_PRECISION;
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
