package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.distribute.SplitAssigner;
import dev.quiver.plan.node.SplitUnit;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table stored in files, resolved once at planning time: its files, schema and statistics, and
 * the per-task splits of a scan.
 *
 * <pre>{@code
 * FileTable table = FileTable.open("/data/tpch/lineitem", Optional.empty(), CsvOptions.DEFAULT,
 *     Optional.empty());
 * ScanSpec scan = table.scan(List.of("l_orderkey", "l_shipdate"), Optional.of(predicate));
 * List<List<FileSplit>> perTask = table.assign(4, scan.predicate());
 * try (FileBatchReader reader = new FileBatchReader(perTask.get(task), scan, allocator)) {
 *   for (VectorSchemaRoot batch; (batch = reader.next()) != null; ) { ...; batch.close(); }
 * }
 * }</pre>
 */
public final class FileTable {
  private final TableFiles files;
  private final Schema schema;
  private final CsvOptions csv;

  private FileTable(TableFiles files, Schema schema, CsvOptions csv) {
    this.files = files;
    this.schema = schema;
    this.csv = csv;
  }

  /**
   * Resolves the table at {@code location} (see {@link TableLocations}) and its schema (see {@link
   * TableSchemas}).
   *
   * @param format the format, or empty to detect it from file extensions
   * @param csv how to parse CSV files (ignored for other formats)
   * @param schema a declared schema overriding inference
   */
  public static FileTable open(
      String location, Optional<FileFormat> format, CsvOptions csv, Optional<Schema> schema) {
    requireNonNull(csv, "csv is null");
    TableFiles files = TableLocations.resolve(location, format);
    return new FileTable(files, TableSchemas.resolve(files, csv, schema), csv);
  }

  public TableFiles files() {
    return files;
  }

  public FileFormat format() {
    return files.format();
  }

  /** The table schema, with Quiver's types. */
  public Schema schema() {
    return schema;
  }

  public CsvOptions csv() {
    return csv;
  }

  /** Row counts and sizes from file metadata. */
  public TableStatistics statistics() {
    return TableStatistics.of(files, csv);
  }

  /** A scan of {@code columns} (in this order) with an optional skipping predicate. */
  public ScanSpec scan(List<String> columns, Optional<ScanPredicate> predicate) {
    return ScanSpec.of(files.format(), schema, csv).withColumns(columns).withPredicate(predicate);
  }

  /** The splits of a scan, files ruled out by the predicate left out. */
  public List<FileSplit> splits(Optional<ScanPredicate> predicate) {
    return SplitPlanner.plan(files, predicate);
  }

  /**
   * The splits of a scan assigned to {@code tasks} tasks, balanced by bytes with the stage
   * planner's {@link SplitAssigner} (loads differ by at most one split of equal size).
   */
  public List<List<FileSplit>> assign(int tasks, Optional<ScanPredicate> predicate) {
    Map<SplitUnit, FileSplit> splitOf = new IdentityHashMap<>();
    List<SplitUnit> units = new ArrayList<>();
    for (FileSplit split : splits(predicate)) {
      SplitUnit unit = SplitUnit.file(split.path(), split.bytes(), split.rows());
      units.add(unit);
      splitOf.put(unit, split);
    }
    List<List<FileSplit>> assigned = new ArrayList<>(tasks);
    for (List<SplitUnit> task : SplitAssigner.assign(units, tasks)) {
      assigned.add(task.stream().map(splitOf::get).toList());
    }
    return List.copyOf(assigned);
  }

  /** A reader of all splits of {@code scan} into {@code allocator}. */
  public FileBatchReader reader(ScanSpec scan, BufferAllocator allocator) {
    return new FileBatchReader(splits(scan.predicate()), scan, allocator);
  }
}
