package dev.quiver.examples.datastream;

import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.compiler.StreamScans;
import dev.quiver.flink.table.TableBridge;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;

/**
 * A plain DataStream job (the user's own environment, source and sink) with a Quiver stage graph in
 * the middle:
 *
 * <pre>
 *   fromSequence ─map─► DataStream&lt;RowData&gt; (page views)
 *   ─► TableBridge.toBatches ─► DataStream&lt;BatchRecord&gt; (Arrow batches)
 *   ─► Quiver: filter ─► partial aggregate ─hash shuffle─► final aggregate
 *   ─► TableBridge.toRows ─► DataStream&lt;Row&gt; ─map─► CSV lines ─► Flink's FileSink
 * </pre>
 *
 * Quiver's stages become ordinary Flink operators of this job ({@link StageGraphCompiler#compile}
 * adds them to the environment and returns the last stage's stream), so Flink schedules, shuffles
 * and restarts them like the rest of the program, and {@code env.execute()} runs it all.
 *
 * <p>Run: {@code DataStreamExample [output directory]} (default: a new temporary directory).
 */
public final class DataStreamExample {
  static final int PARALLELISM = 2;
  static final int VIEWS = 20_000;
  static final List<String> PAGES = List.of("/", "/cart", "/checkout", "/docs", "/search");

  /** The rows the source produces, as Flink's logical type: what Quiver's Arrow schema follows. */
  static final RowType PAGE_VIEW =
      (RowType)
          DataTypes.ROW(
                  DataTypes.FIELD("user_id", DataTypes.BIGINT().notNull()),
                  DataTypes.FIELD("page", DataTypes.STRING().notNull()),
                  DataTypes.FIELD("millis", DataTypes.INT().notNull()))
              .getLogicalType();

  private DataStreamExample() {}

  public static void main(String[] args) throws Exception {
    Path out =
        args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("quiver-datastream-example");
    run(out, System.out);
  }

  /** Runs the job, writing CSV files into {@code output}; prints and returns their lines. */
  static List<String> run(Path output, PrintStream out) throws Exception {
    StreamExecutionEnvironment env = environment();

    // The user's source: any DataStream of Flink's internal rows (Flink's own sources and
    // formats produce RowData; here a generated sequence). Page view v: user v % 500, a page, and
    // a time on the page in milliseconds.
    DataStream<RowData> views =
        env.fromSequence(0, VIEWS - 1)
            .map(DataStreamExample::pageView)
            .returns(InternalTypeInfo.of(PAGE_VIEW));

    // Hand the stream to Quiver: rows are packed into Arrow batches (chained to the map, no
    // shuffle), and the batches become the table "views" a Quiver plan scans.
    StreamScans streams = new StreamScans();
    DataStream<BatchRecord> batches = TableBridge.toBatches(views, PAGE_VIEW, 4096);
    PlanBuilder scan = PlanBuilder.scan(streams.add("views", batches), batches.getParallelism());

    // SELECT page, count(*), sum(millis), max(millis) FROM views WHERE millis >= 1000 GROUP BY page
    PlanBuilder longViews =
        scan.filter(call(ScalarFunction.GREATER_THAN_OR_EQUAL, scan.col(2), lit(1000)));
    List<AggregateCall> calls =
        List.of(
            AggregateCall.countStar("views"),
            longViews.call(AggregateFunction.SUM, 2, "total_millis"),
            longViews.call(AggregateFunction.MAX, 2, "max_millis"));
    PlanNode plan =
        longViews
            .aggregate(AggregateMode.PARTIAL, keys(1), calls)
            .repartition(hash(0), PARALLELISM) // all partial states of a page meet in one task
            .aggregate(AggregateMode.FINAL, keys(1), calls)
            .build();
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);
    out.println(graph.explain());

    // The stages join the job; what comes back is a DataStream again.
    DataStream<BatchRecord> totals =
        new StageGraphCompiler().withScanSources(streams).compile(env, graph);
    DataStream<Row> rows = TableBridge.toRows(totals); // page, views, total_millis, max_millis

    // The user's sink: Flink's own FileSink, one CSV line per page. In BATCH mode the part files
    // are committed (made visible under their final names) when the job ends.
    rows.map(DataStreamExample::csv)
        .returns(Types.STRING)
        .sinkTo(
            FileSink.forRowFormat(
                    new org.apache.flink.core.fs.Path(output.toUri()),
                    new SimpleStringEncoder<String>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .build());
    env.execute("datastream example");

    List<String> lines = readLines(output);
    out.println("page,views,total_millis,max_millis");
    lines.forEach(out::println);
    return lines;
  }

  /** Page view {@code v}; times on the page are spread from 0 to 4,999 ms. */
  static RowData pageView(long v) {
    return GenericRowData.of(
        v % 500, StringData.fromString(PAGES.get((int) (v % PAGES.size()))), millis(v));
  }

  static int millis(long v) {
    return (int) (v * 7919 % 5000);
  }

  private static String csv(Row row) {
    return row.getField(0) + "," + row.getField(1) + "," + row.getField(2) + "," + row.getField(3);
  }

  /** The lines of the committed part files, sorted; in-progress files start with a dot. */
  static List<String> readLines(Path output) throws IOException {
    try (Stream<Path> files = Files.list(output)) {
      return files
          .filter(file -> !file.getFileName().toString().startsWith("."))
          .flatMap(DataStreamExample::lines)
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static Stream<String> lines(Path file) {
    try {
      return Files.readAllLines(file).stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A local MiniCluster in BATCH mode, set up as Quiver jobs need (see the plan example). */
  static StreamExecutionEnvironment environment() {
    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(PARALLELISM, conf);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    return env;
  }
}
