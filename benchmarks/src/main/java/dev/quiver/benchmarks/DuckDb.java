package dev.quiver.benchmarks;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.StringJoiner;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * An in-memory DuckDB database on one thread ({@code SET threads=1}), the reference the operator
 * benchmarks run beside Quiver: tables are loaded from the very Arrow batches Quiver reads, with
 * DuckDB's appender, so both engines compute over the same values and the same column types
 * (DECIMAL(15,2), DATE, BIGINT, VARCHAR).
 */
final class DuckDb implements AutoCloseable {
  final Connection connection;

  private DuckDb(Connection connection) {
    this.connection = connection;
  }

  static DuckDb open() {
    try {
      Connection connection = DriverManager.getConnection("jdbc:duckdb:");
      try (Statement statement = connection.createStatement()) {
        statement.execute("SET threads=1");
      } catch (SQLException | RuntimeException e) {
        connection.close();
        throw e;
      }
      return new DuckDb(connection);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open an in-memory DuckDB database", e);
    }
  }

  /** Creates table {@code name} with the columns of {@code schema} and appends every batch. */
  void load(String name, Schema schema, List<VectorSchemaRoot> batches) {
    StringJoiner columns = new StringJoiner(", ", "CREATE TABLE " + name + " (", ")");
    for (Field field : schema.getFields()) {
      columns.add(field.getName() + " " + sqlType(field.getType()) + " NOT NULL");
    }
    try {
      execute(columns.toString());
      try (DuckDBAppender appender = ((DuckDBConnection) connection).createAppender(name)) {
        for (VectorSchemaRoot batch : batches) {
          append(appender, batch);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot load DuckDB table " + name, e);
    }
  }

  void execute(String sql) {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB failed: " + sql, e);
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot close DuckDB", e);
    }
  }

  private static void append(DuckDBAppender appender, VectorSchemaRoot batch) throws SQLException {
    List<FieldVector> vectors = batch.getFieldVectors();
    Cell[] cells = new Cell[vectors.size()];
    for (int c = 0; c < cells.length; c++) {
      cells[c] = cell(vectors.get(c));
    }
    for (int row = 0; row < batch.getRowCount(); row++) {
      appender.beginRow();
      for (Cell cell : cells) {
        cell.append(appender, row);
      }
      appender.endRow();
    }
  }

  /** Appends the value of one column at a row. */
  private interface Cell {
    void append(DuckDBAppender appender, int row) throws SQLException;
  }

  private static Cell cell(FieldVector vector) {
    if (vector instanceof BigIntVector) {
      BigIntVector v = (BigIntVector) vector;
      return (appender, row) -> appender.append(v.get(row));
    }
    if (vector instanceof IntVector) {
      IntVector v = (IntVector) vector;
      return (appender, row) -> appender.append(v.get(row));
    }
    if (vector instanceof DecimalVector) {
      // Unscaled values of DECIMAL(p<=18,s) fit in the low 64 bits; DuckDB stores them as int64.
      ArrowBuf data = vector.getDataBuffer();
      return (appender, row) -> appender.appendDecimal(data.getLong((long) row * 16));
    }
    if (vector instanceof DateDayVector) {
      DateDayVector v = (DateDayVector) vector;
      return (appender, row) -> appender.appendEpochDays(v.get(row));
    }
    if (vector instanceof VarCharVector) {
      VarCharVector v = (VarCharVector) vector;
      return (appender, row) -> appender.append(new String(v.get(row), StandardCharsets.UTF_8));
    }
    throw new IllegalArgumentException("no DuckDB column for " + vector.getField());
  }

  private static String sqlType(ArrowType type) {
    if (type instanceof ArrowType.Int) {
      return ((ArrowType.Int) type).getBitWidth() == 64 ? "BIGINT" : "INTEGER";
    }
    if (type instanceof ArrowType.Decimal) {
      ArrowType.Decimal decimal = (ArrowType.Decimal) type;
      if (decimal.getPrecision() > 18) {
        throw new IllegalArgumentException("only decimals of up to 18 digits load: " + type);
      }
      return "DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + ")";
    }
    if (type instanceof ArrowType.Date) {
      return "DATE";
    }
    if (type instanceof ArrowType.Utf8) {
      return "VARCHAR";
    }
    throw new IllegalArgumentException("no DuckDB type for " + type);
  }
}
