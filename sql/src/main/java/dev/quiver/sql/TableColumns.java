package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The columns a {@code CREATE TABLE} declares, each with where its values come from, as Flink SQL's
 * schema has them: a physical column is stored (in the message value, in the file), a computed
 * column ({@code ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3)}) is an expression of the table's other
 * columns, a metadata column ({@code part INT METADATA FROM 'partition' VIRTUAL}) is read from the
 * connector's record (a Kafka record's partition).
 *
 * <pre>
 *   declared  {@link #schema()}  every column in declared order: what a scan of the table gives
 *   stored    {@link #stored()}  the physical columns: what a connector decodes and a sink writes
 *   read      {@link #read()}    stored, then the metadata columns: what a connector's reader
 *                                builds, and what {@link #expressions()} compute the declared row of
 * </pre>
 *
 * They travel with the catalog table's options ({@link #options()}, {@link #of(RowSchema, Map)}), a
 * computed column as its SQL text: it is compiled again, with Quiver's own SQL, wherever a job is
 * built.
 */
public final class TableColumns {
  /** The option prefix of a column's declaration ({@code quiver.column.<name>.as} and others). */
  public static final String PREFIX = "quiver.column.";

  private static final String AS = ".as";
  private static final String METADATA = ".metadata";
  private static final String VIRTUAL = ".virtual";

  /** Where a column's values come from. */
  public enum Kind {
    PHYSICAL,
    COMPUTED,
    METADATA
  }

  /**
   * One declared column.
   *
   * @param column its name and type
   * @param kind where its values come from
   * @param expression a computed column's SQL expression, else empty
   * @param metadataKey a metadata column's key ({@code FROM 'partition'}, else its name), else
   *     empty
   * @param virtual whether a metadata column is {@code VIRTUAL} (read only, never written)
   */
  public record Declared(
      Column column, Kind kind, String expression, String metadataKey, boolean virtual) {
    public Declared {
      requireNonNull(column, "column is null");
      requireNonNull(kind, "kind is null");
      requireNonNull(expression, "expression is null");
      requireNonNull(metadataKey, "metadataKey is null");
    }

    public static Declared physical(Column column) {
      return new Declared(column, Kind.PHYSICAL, "", "", false);
    }

    public static Declared computed(Column column, String expression) {
      return new Declared(column, Kind.COMPUTED, expression, "", true);
    }

    public static Declared metadata(Column column, String key, boolean virtual) {
      return new Declared(column, Kind.METADATA, "", key, virtual);
    }

    public String name() {
      return column.name();
    }
  }

  private final String table;
  private final List<Declared> columns;

  private TableColumns(String table, List<Declared> columns) {
    this.table = requireNonNull(table, "table is null");
    this.columns = List.copyOf(columns);
  }

  /** {@code columns} of {@code table}, in declared order. */
  public static TableColumns of(String table, List<Declared> columns) {
    return new TableColumns(table, columns);
  }

  /** A table of physical columns only. */
  public static TableColumns physical(String table, RowSchema schema) {
    return new TableColumns(table, schema.columns().stream().map(Declared::physical).toList());
  }

  /**
   * The columns of {@code table}'s declared {@code schema} as its {@code options} describe them
   * (physical unless an option says otherwise).
   */
  public static TableColumns of(String table, RowSchema schema, Map<String, String> options) {
    List<Declared> columns = new ArrayList<>();
    for (Column column : schema.columns()) {
      String expression = options.get(PREFIX + column.name() + AS);
      String key = options.get(PREFIX + column.name() + METADATA);
      if (expression != null) {
        columns.add(Declared.computed(column, expression));
      } else if (key != null) {
        columns.add(
            Declared.metadata(
                column, key, Boolean.parseBoolean(options.get(PREFIX + column.name() + VIRTUAL))));
      } else {
        columns.add(Declared.physical(column));
      }
    }
    return new TableColumns(table, columns);
  }

  /**
   * Declares a table whose computed columns are given as SQL text without a type: each is compiled
   * over the read row ({@link #read()}: physical and metadata columns) and takes its expression's
   * type.
   *
   * @param columns the columns in declared order; a computed one's column type is ignored
   * @throws QuiverException naming the computed column whose expression does not compile
   */
  public static TableColumns declare(String table, List<Declared> columns) {
    TableColumns untyped = new TableColumns(table, columns);
    RowSchema read = untyped.read();
    List<Declared> typed = new ArrayList<>();
    for (Declared column : columns) {
      if (column.kind() == Kind.COMPUTED) {
        Expr expr = ComputedExpressions.compile(table, read, column.name(), column.expression());
        typed.add(
            Declared.computed(
                new Column(column.name(), expr.sqlType(), expr.nullable()), column.expression()));
      } else {
        typed.add(column);
      }
    }
    return new TableColumns(table, typed);
  }

  public String table() {
    return table;
  }

  public List<Declared> columns() {
    return columns;
  }

  /** Whether every column is physical: the connector's row is the declared row. */
  public boolean allPhysical() {
    return columns.stream().allMatch(c -> c.kind() == Kind.PHYSICAL);
  }

  /** The columns of {@code kind}, in declared order. */
  public List<Declared> ofKind(Kind kind) {
    return columns.stream().filter(c -> c.kind() == kind).toList();
  }

  /** Every column in declared order. */
  public RowSchema schema() {
    return new RowSchema(columns.stream().map(Declared::column).toList());
  }

  /** The physical columns, in declared order. */
  public RowSchema stored() {
    return new RowSchema(ofKind(Kind.PHYSICAL).stream().map(Declared::column).toList());
  }

  /** The physical columns, then the metadata columns, each in declared order. */
  public RowSchema read() {
    List<Column> read = new ArrayList<>(stored().columns());
    ofKind(Kind.METADATA).forEach(c -> read.add(c.column()));
    return new RowSchema(read);
  }

  /** The options that describe the columns that are not physical. */
  public Map<String, String> options() {
    Map<String, String> options = new LinkedHashMap<>();
    for (Declared column : columns) {
      switch (column.kind()) {
        case COMPUTED -> options.put(PREFIX + column.name() + AS, column.expression());
        case METADATA -> {
          options.put(PREFIX + column.name() + METADATA, column.metadataKey());
          options.put(PREFIX + column.name() + VIRTUAL, Boolean.toString(column.virtual()));
        }
        case PHYSICAL -> {}
      }
    }
    return options;
  }

  /**
   * The declared row as expressions over the read row ({@link #read()}): column references for
   * physical and metadata columns, the compiled expression for computed ones. A projection of them
   * turns the batches a connector reads into the table's.
   */
  public List<Expr> expressions() {
    RowSchema read = read();
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < read.size(); i++) {
      index.put(read.column(i).name(), i);
    }
    List<Expr> exprs = new ArrayList<>();
    for (Declared column : columns) {
      if (column.kind() == Kind.COMPUTED) {
        Expr expr = ComputedExpressions.compile(table, read, column.name(), column.expression());
        if (!expr.sqlType().equals(column.column().type())) {
          throw new QuiverException(
              ErrorCode.INVALID_QUERY,
              "the computed column "
                  + column.name()
                  + " of "
                  + table
                  + " is now "
                  + expr.sqlType()
                  + ", declared "
                  + column.column().type());
        }
        exprs.add(expr);
      } else {
        Column c = column.column();
        exprs.add(new ColumnRef(index.get(c.name()), c.type(), c.nullable(), c.name()));
      }
    }
    return exprs;
  }

  /**
   * The columns a scan of {@code names} needs: those of them that are physical or metadata, every
   * physical or metadata column their computed ones read, and those computed ones, in declared
   * order. A connector reads only its {@link #read()} row.
   */
  public TableColumns narrowedTo(Collection<String> names) {
    Set<String> wanted = new HashSet<>(names);
    RowSchema read = read();
    List<Expr> all = expressions();
    Set<String> needed = new HashSet<>(wanted);
    for (int c = 0; c < columns.size(); c++) {
      if (wanted.contains(columns.get(c).name())) {
        references(all.get(c), read, needed);
      }
    }
    return new TableColumns(
        table, columns.stream().filter(column -> needed.contains(column.name())).toList());
  }

  private static void references(Expr expr, RowSchema row, Set<String> names) {
    if (expr instanceof ColumnRef ref) {
      names.add(row.column(ref.index()).name());
    }
    expr.children().forEach(child -> references(child, row, names));
  }

  /** The names of {@code schema}'s columns, in order. */
  public static List<String> names(RowSchema schema) {
    return schema.columns().stream().map(Column::name).toList();
  }

  /** The position of column {@code name} (exact spelling) in the declared row, or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The column {@code name} (exact spelling), if declared. */
  public Optional<Declared> column(String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  @Override
  public String toString() {
    return table + schema();
  }
}
