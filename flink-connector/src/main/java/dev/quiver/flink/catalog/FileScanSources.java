package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.compiler.ScanSourceFactory;
import dev.quiver.flink.file.FileScanSource;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.ScanPredicate;
import dev.quiver.formats.ScanPredicates;
import dev.quiver.formats.ScanSpec;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.sql.TableColumns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The scan sources of tables stored in files: a planned {@link Scan} whose source carries {@link
 * FileTableOptions} becomes a {@link FileScanSource} stream in which task {@code t} reads exactly
 * the files the stage planner gave it.
 *
 * <pre>
 *   scan.source().options() ─► FileTableSpec ─► FileTable (reopened, cached per options)
 *   scan.source().schema()  ─► ScanSpec of exactly those columns, by name, in that order
 *   scan.source().filter()  ─► ScanPredicate: row groups skipped by statistics while reading
 *   scan.assignment()       ─► per-task FileSplits ─► FileScanSource.stream
 * </pre>
 *
 * A scan with a filter was planned with the units {@link FileCatalogTables}' pruner kept for that
 * filter (files it rules out have no unit), and its splits are matched under the same filter.
 *
 * <p>The source's schema is what the SQL planner kept of the catalog schema (projection pushdown),
 * so only those columns are read. The table is reopened because the catalog is a snapshot taken at
 * registration: a file deleted or rewritten with other columns since then is reported here, while
 * the job is built, as an error that names the table and the file or column, rather than as a
 * failed task. A factory caches the tables it opened, so use a new factory per query to see file
 * changes (opening reads every file's footer). Not thread-safe: the compiler calls it from one
 * thread.
 */
public final class FileScanSources implements ScanSourceFactory {
  private final Map<Map<String, String>, FileTable> tables = new HashMap<>();

  @Override
  public DataStream<BatchRecord> source(
      StreamExecutionEnvironment env, Scan scan, BatchTypeInfo type) {
    requireNonNull(env, "env is null");
    requireNonNull(scan, "scan is null");
    requireNonNull(type, "type is null");
    TableSource source = scan.source();
    FileTable table = table(source);
    Optional<ScanPredicate> predicate = ScanPredicates.of(source.filter());
    // A table with computed columns: the physical columns the scan's columns need.
    Optional<TableColumns> computed =
        ComputedFileTables.columns(source.name(), source.options())
            .map(columns -> columns.narrowedTo(TableColumns.names(source.schema())));
    ScanSpec spec =
        computed.isEmpty()
            ? table.scan(columns(source, table), predicate)
            : table.scan(TableColumns.names(computed.get().stored()), predicate);
    List<List<SplitUnit>> units =
        scan.assignment()
            .orElseThrow(
                () -> new IllegalStateException(scan + " has no split assignment: plan it first"));
    checkFilesExist(source, table, units);
    List<List<FileSplit>> assignment = FileScanSource.assignment(table, predicate, units);
    if (computed.isEmpty()) {
      return FileScanSource.stream(env, table, spec, assignment, type, source.name());
    }
    // The physical columns, then the scan's columns computed from them.
    TableColumns columns = computed.get();
    BatchTypeInfo stored =
        BatchTypeInfo.of(
            spec.outputSchema(), type.compression(), "scan " + source.name() + " (stored)");
    List<Expr> all = columns.expressions();
    List<Expr> read = new ArrayList<>();
    for (Column column : source.schema().columns()) {
      read.add(all.get(columns.indexOf(column.name())));
    }
    return ComputedColumnsOperator.compute(
        FileScanSource.stream(env, table, spec, assignment, stored, source.name()),
        read,
        TableColumns.names(source.schema()),
        type,
        "scan " + source.name());
  }

  /** The table of {@code source}, opened once per distinct options. */
  private FileTable table(TableSource source) {
    FileTable table = tables.get(source.options());
    if (table == null) {
      FileTableSpec spec =
          FileTableOptions.decode(source.options())
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "table '"
                              + source.name()
                              + "' is not stored in files (its scan options "
                              + source.options()
                              + " have no "
                              + FileTableOptions.CONNECTOR
                              + " = "
                              + FileTableOptions.FILE_CONNECTOR
                              + "): FileScanSources reads only tables described by"
                              + " FileCatalogTables"));
      table = open(source, spec);
      tables.put(source.options(), table);
    }
    return table;
  }

  private static FileTable open(TableSource source, FileTableSpec spec) {
    try {
      return spec.open();
    } catch (QuiverException e) {
      // The file layer names the location; the user knows the table by its name.
      String message = e.getMessage().substring(e.code().name().length() + 3);
      throw new QuiverException(e.code(), "Table '" + source.name() + "': " + message, e);
    }
  }

  /**
   * The names of the scan's columns, each checked against the file schema as it is now: the scan's
   * types came from the file when the table was registered.
   */
  private static List<String> columns(TableSource source, FileTable table) {
    Map<String, Field> fields = new HashMap<>();
    table.schema().getFields().forEach(field -> fields.putIfAbsent(field.getName(), field));
    List<String> names = new ArrayList<>(source.schema().size());
    for (Column column : source.schema().columns()) {
      Field field = fields.get(column.name());
      if (field == null) {
        throw mismatch(source, table, column, "the files have no such column any more");
      }
      Optional<Column> now = FileCatalogTables.column(field);
      if (now.isEmpty() || !now.get().type().equals(column.type())) {
        throw mismatch(source, table, column, "the files now store it as " + field.getType());
      }
      if (!column.nullable() && now.get().nullable()) {
        throw mismatch(source, table, column, "the files now allow NULL in it");
      }
      names.add(column.name());
    }
    return names;
  }

  private static QuiverException mismatch(
      TableSource source, FileTable table, Column column, String detail) {
    return new QuiverException(
        ErrorCode.SCHEMA_MISMATCH,
        "Column '"
            + column.name()
            + "' of table '"
            + source.name()
            + "' ("
            + table.files().location()
            + ") was registered as "
            + column.type()
            + (column.nullable() ? "" : " NOT NULL")
            + " but "
            + detail
            + "; register the table again");
  }

  /** Every planned file must still be one of the table's files. */
  private static void checkFilesExist(
      TableSource source, FileTable table, List<List<SplitUnit>> units) {
    Set<String> paths = new HashSet<>();
    table.files().files().forEach(file -> paths.add(file.path()));
    for (List<SplitUnit> task : units) {
      for (SplitUnit unit : task) {
        if (!paths.contains(unit.path())) {
          throw new QuiverException(
              ErrorCode.FILE_NOT_FOUND,
              "File "
                  + unit.path()
                  + " of table '"
                  + source.name()
                  + "' is no longer at "
                  + table.files().location()
                  + " (was it deleted?); register the table again");
        }
      }
    }
  }
}
