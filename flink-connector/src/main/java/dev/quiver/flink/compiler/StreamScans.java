package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.sql.CatalogTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Streams of Arrow batches that a Flink program already has, as tables that Quiver plans and SQL
 * queries read in the same job: a {@link DataStream} of {@link BatchRecord}s (from {@code
 * TableBridge.toBatches}, or the program's own batch-producing operator) is registered under a
 * name, a plan scans the {@link TableSource} (or SQL names the {@link CatalogTable}), and the
 * compiler, given this factory, reads the scan from the stream.
 *
 * <pre>
 *   DataStream&lt;BatchRecord&gt; ─add("orders", stream)─► TableSource "orders" ─► PlanBuilder.scan
 *                                                     ─► catalogTable(...)   ─► SQL "FROM orders"
 *   StageGraphCompiler.withScanSources(streams): scan of "orders" ─► stream (columns by name) ─► stage
 * </pre>
 *
 * A scan reads the columns its source's schema names, by name, so a SQL query that uses only some
 * columns (projection pushdown) gets only those. A scan planned with a different number of tasks
 * than the stream has (SQL plans every scan with its parallelism) gets the stream rebalanced to its
 * tasks. Split units are placeholders here (one per stream task): a stream is read as it is,
 * whatever units the planner assigned. Streams must be bounded in a BATCH job, like every Quiver
 * input. Not thread-safe; use one per job.
 */
public final class StreamScans implements ScanSourceFactory {
  /** The {@linkplain TableSource#options() option} that names the stream a source reads. */
  public static final String STREAM_OPTION = "quiver.stream";

  private final Map<String, DataStream<BatchRecord>> streams = new LinkedHashMap<>();
  private final Map<String, TableSource> sources = new LinkedHashMap<>();

  /**
   * Registers {@code batches} as the table {@code name} and returns its source, for {@code
   * PlanBuilder.scan(source, batches.getParallelism())}.
   *
   * @throws IllegalArgumentException if the name is taken or the stream's type is not {@link
   *     BatchTypeInfo}
   * @throws dev.quiver.error.QuiverException if a column's Arrow type has no SQL type in Quiver
   */
  public TableSource add(String name, DataStream<BatchRecord> batches) {
    requireNonNull(name, "name is null");
    requireNonNull(batches, "batches is null");
    if (name.isBlank() || streams.containsKey(name)) {
      throw new IllegalArgumentException(
          "a stream table needs a new, non-empty name: '" + name + "'");
    }
    RowSchema schema = RowSchema.fromArrow(schemaOf(batches));
    List<SplitUnit> units = new ArrayList<>();
    for (int t = 0; t < batches.getParallelism(); t++) {
      units.add(SplitUnit.file("stream:" + name + "/" + t, 0, SplitUnit.UNKNOWN_ROWS));
    }
    TableSource source = new TableSource(name, schema, units, Map.of(STREAM_OPTION, name));
    streams.put(name, batches);
    sources.put(name, source);
    return source;
  }

  /**
   * The stream table {@code name} as a SQL catalog table. {@code estimatedRows} feeds the SQL
   * planner's cost model only (join order, which side of a join is broadcast): a stream has no
   * statistics, so say roughly how many rows it carries.
   */
  public CatalogTable catalogTable(String name, long estimatedRows) {
    TableSource source = sources.get(requireNonNull(name, "name is null"));
    if (source == null) {
      throw new IllegalArgumentException("no stream table '" + name + "': add it first");
    }
    return new CatalogTable(name, source.schema(), estimatedRows, source.units(), source.options());
  }

  @Override
  public DataStream<BatchRecord> source(
      StreamExecutionEnvironment env, Scan scan, BatchTypeInfo type) {
    requireNonNull(env, "env is null");
    requireNonNull(scan, "scan is null");
    requireNonNull(type, "type is null");
    String name = scan.source().option(STREAM_OPTION);
    DataStream<BatchRecord> stream = name == null ? null : streams.get(name);
    if (stream == null) {
      throw new IllegalArgumentException(
          "the plan reads "
              + scan
              + ", which is not a stream table of this StreamScans: add its stream first");
    }
    if (stream.getExecutionEnvironment() != env) {
      throw new IllegalArgumentException(
          "the stream of table '"
              + name
              + "' belongs to another StreamExecutionEnvironment than the one the plan compiles"
              + " into");
    }
    Schema streamSchema = schemaOf(stream);
    int[] columns = SelectColumnsOperator.columns(name, streamSchema, scan.source().schema());
    if (streamSchema.equals(type.schema()) && stream.getParallelism() == scan.tasks()) {
      return stream; // the scan reads the stream as it is
    }
    // Network edges carry batches; a task's allocator owns what it receives (BatchOperator).
    DataStream<BatchRecord> input =
        stream.getParallelism() == scan.tasks() ? stream.forward() : stream.rebalance();
    return input
        .transform(
            "stream " + name + " → scan",
            type,
            new SelectColumnsOperator(columns, scan.source().schema()))
        .setParallelism(scan.tasks());
  }

  private static Schema schemaOf(DataStream<BatchRecord> batches) {
    return SelectColumnsOperator.schemaOf(batches);
  }
}
