package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.FileTypes;
import dev.quiver.formats.ScanPredicate;
import dev.quiver.formats.ScanSpec;
import dev.quiver.plan.node.SplitUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A bounded FLIP-27 source of Arrow batches read from a {@link FileTable}, with splits assigned to
 * tasks at planning time.
 *
 * <pre>
 *  planner: FileTable.assign(3, predicate) = [[a, d], [b], [c, e]]
 *  enumerator: reader 0 registers ─► a, d, no more splits
 *              reader 2 registers ─► c, e, no more splits     (order of registration is irrelevant)
 *              reader 1 registers ─► b, no more splits
 * </pre>
 *
 * <p>Task {@code t} emits {@code BatchRecord.data(t, batch)} records holding the batches of its
 * splits (see {@link FileScanReader}); the stream's parallelism is the number of planned tasks. Use
 * {@link #stream} to add it to a job; as the stage-graph compiler's scan source (the table and its
 * scan looked up by the plan's table source):
 *
 * <pre>{@code
 * (env, scan, type) -> FileScanSource.stream(env, table, spec,
 *     FileScanSource.assignment(table, spec.predicate(), scan.assignment().orElseThrow()), type)
 * }</pre>
 */
public final class FileScanSource
    implements Source<BatchRecord, FileScanSplit, FileScanEnumeratorState>,
        ResultTypeQueryable<BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final ScanSpec scan;
  private final BatchTypeInfo type;
  private final ArrayList<FileScanSplit> splits = new ArrayList<>();
  private final int tasks;
  private final String name;
  private final String keyRangeTable; // nullable: takes no key ranges

  /**
   * A source that reads {@code assignment.get(t)} in task {@code t} with {@code scan}, emitting
   * batches of {@code type}'s schema (whose column types must be the scan's output types).
   */
  public FileScanSource(
      ScanSpec scan, List<List<FileSplit>> assignment, BatchTypeInfo type, String name) {
    this(scan, assignment, type, name, null);
  }

  /**
   * As above; each task also narrows what it reads of each file by the key ranges its stage's joins
   * publish for the scan of {@code keyRangeTable} ({@code TaskKeyRanges}, {@code ScanKeyRanges}),
   * or by none if it is null.
   */
  public FileScanSource(
      ScanSpec scan,
      List<List<FileSplit>> assignment,
      BatchTypeInfo type,
      String name,
      String keyRangeTable) {
    this.keyRangeTable = keyRangeTable;
    this.scan = requireNonNull(scan, "scan is null");
    this.type = requireNonNull(type, "type is null");
    this.name = requireNonNull(name, "name is null");
    this.tasks = requireNonNull(assignment, "assignment is null").size();
    if (tasks < 1) {
      throw new IllegalArgumentException(name + ": a scan needs at least one task");
    }
    checkTypes(scan.outputSchema(), type.schema(), name);
    for (int t = 0; t < tasks; t++) {
      List<FileSplit> files = assignment.get(t);
      for (int i = 0; i < files.size(); i++) {
        splits.add(new FileScanSplit(t, i, files.get(i), 0));
      }
    }
  }

  /**
   * Adds the scan of {@code table} to {@code env}: a stream of {@code assignment.size()} tasks,
   * task {@code t} reading exactly {@code assignment.get(t)} (from {@link FileTable#assign} or
   * {@link #assignment}) with {@code scan}. Records have type {@code type}: the compiler's edge
   * type, whose column types must be the scan's output types (names and nullability may differ).
   */
  public static DataStream<BatchRecord> stream(
      StreamExecutionEnvironment env,
      FileTable table,
      ScanSpec scan,
      List<List<FileSplit>> assignment,
      BatchTypeInfo type) {
    return stream(env, table, scan, assignment, type, null);
  }

  /**
   * {@link #stream} whose tasks take the key ranges published for the scan of {@code keyRangeTable}
   * (see the constructor), none if it is null.
   */
  public static DataStream<BatchRecord> stream(
      StreamExecutionEnvironment env,
      FileTable table,
      ScanSpec scan,
      List<List<FileSplit>> assignment,
      BatchTypeInfo type,
      String keyRangeTable) {
    requireNonNull(env, "env is null");
    String name = "scan " + requireNonNull(table, "table is null").files().location();
    FileScanSource source = new FileScanSource(scan, assignment, type, name, keyRangeTable);
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), name, type)
        .setParallelism(assignment.size());
  }

  /** {@link #stream} with an edge type of the scan's output schema. */
  public static DataStream<BatchRecord> stream(
      StreamExecutionEnvironment env,
      FileTable table,
      ScanSpec scan,
      List<List<FileSplit>> assignment) {
    String edge = "scan " + requireNonNull(table, "table is null").files().location();
    return stream(env, table, scan, assignment, BatchTypeInfo.of(scan.outputSchema(), edge));
  }

  /**
   * The file splits of a stage planner's per-task split units (see {@code Scan.assignment()}).
   * Units are matched to {@code table}'s splits under {@code predicate} by path; a unit of a file
   * of the table that the predicate rules out (planned with fewer or no statistics) is dropped,
   * since none of its rows can be needed.
   *
   * @throws IllegalArgumentException if a unit is not a whole file of the table
   */
  public static List<List<FileSplit>> assignment(
      FileTable table, Optional<ScanPredicate> predicate, List<List<SplitUnit>> units) {
    Map<String, FileSplit> byPath = new HashMap<>();
    table.splits(predicate).forEach(split -> byPath.put(split.path(), split));
    Set<String> paths = new HashSet<>();
    table.files().files().forEach(file -> paths.add(file.path()));
    List<List<FileSplit>> perTask = new ArrayList<>(units.size());
    for (List<SplitUnit> task : units) {
      List<FileSplit> files = new ArrayList<>(task.size());
      for (SplitUnit unit : task) {
        FileSplit split = byPath.get(unit.path());
        if (unit.rowGroup().isPresent() || (split == null && !paths.contains(unit.path()))) {
          throw new IllegalArgumentException(
              "split unit " + unit + " is not a whole file of " + table.files().location());
        }
        if (split != null) {
          files.add(split);
        }
      }
      perTask.add(List.copyOf(files));
    }
    return List.copyOf(perTask);
  }

  private static void checkTypes(Schema scan, Schema edge, String name) {
    List<Field> read = scan.getFields();
    List<Field> sent = edge.getFields();
    boolean same = read.size() == sent.size();
    for (int i = 0; same && i < read.size(); i++) {
      same = read.get(i).getType().equals(sent.get(i).getType());
    }
    if (!same) {
      throw new IllegalArgumentException(
          name + ": the scan reads " + scan + " but its stream is typed " + edge);
    }
    for (Field field : read) {
      if (!FileTypes.supported(field)) {
        throw new QuiverException(
            ErrorCode.UNSUPPORTED_TYPE,
            "Column '"
                + field.getName()
                + "' of "
                + name
                + " has type "
                + field.getType()
                + ", which Quiver cannot read; leave it out of the query");
      }
    }
  }

  /** The number of tasks the splits were planned for. */
  public int tasks() {
    return tasks;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SourceReader<BatchRecord, FileScanSplit> createReader(SourceReaderContext context) {
    return new FileScanReader(
        scan, type.schema(), context.getIndexOfSubtask(), name, keyRangeTable);
  }

  @Override
  public SplitEnumerator<FileScanSplit, FileScanEnumeratorState> createEnumerator(
      SplitEnumeratorContext<FileScanSplit> context) {
    return new FileScanEnumerator(context, tasks, name, splits);
  }

  @Override
  public SplitEnumerator<FileScanSplit, FileScanEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<FileScanSplit> context, FileScanEnumeratorState checkpoint) {
    return new FileScanEnumerator(context, tasks, name, checkpoint.unassigned());
  }

  @Override
  public SimpleVersionedSerializer<FileScanSplit> getSplitSerializer() {
    return FileScanSplitSerializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<FileScanEnumeratorState> getEnumeratorCheckpointSerializer() {
    return FileScanEnumeratorState.Serializer.INSTANCE;
  }

  @Override
  public TypeInformation<BatchRecord> getProducedType() {
    return type;
  }
}
