package dev.quiver.benchmarks.nexmark;

import dev.quiver.benchmarks.run.Engine;
import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code quiver nexmark}'s measurement (issue #18 item 7): Nexmark queries on each engine over the
 * same generated stream, one line per query:
 *
 * <pre>
 * query  quiver_eps  flink_eps  quiver_p50_ms  quiver_p99_ms  flink_p50_ms  flink_p99_ms  quiver_rows  flink_rows
 * q0     -           1234567    -              -              12.3          45.6          -            9200000
 * </pre>
 *
 * <p>{@code *_eps}: events generated (all kinds) divided by the time from the first event a source
 * emitted to the sink's end of input, so job submission, deployment and teardown are not counted.
 * {@code *_p50_ms}, {@code *_p99_ms}: event-time latency at the sink ({@link NexmarkRun}). {@code
 * *_rows}: rows written to the sink. An engine not run, or a run that failed, prints {@code -}.
 * Each query first runs once unmeasured on {@code --warmup-events} events per engine.
 *
 * <pre>
 * java -Xmx8g -cp benchmarks/target/benchmarks.jar dev.quiver.benchmarks.nexmark.NexmarkBenchmark \
 *     --events 10000000 --queries 0,1,2,5,7,8 --parallelism 2
 * </pre>
 */
public final class NexmarkBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(NexmarkBenchmark.class);

  /** The header line; the first three columns are the ones issue #18 names. */
  public static final String HEADER =
      "query\tquiver_eps\tflink_eps\tquiver_p50_ms\tquiver_p99_ms\tflink_p50_ms\tflink_p99_ms"
          + "\tquiver_rows\tflink_rows";

  private NexmarkBenchmark() {}

  public static void main(String[] args) throws Exception {
    NexmarkOptions options;
    try {
      options = NexmarkOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    run(options, System.out);
  }

  /** Runs every query on every engine of {@code options}, printing the table to {@code out}. */
  static void run(NexmarkOptions options, PrintStream out) throws Exception {
    Map<Engine.Kind, NexmarkEngine> engines = new EnumMap<>(Engine.Kind.class);
    try {
      for (Engine.Kind kind : options.engines()) {
        engines.put(kind, create(kind, options));
      }
      out.println(HEADER);
      out.flush();
      for (NexmarkQuery query : options.queries()) {
        Map<Engine.Kind, NexmarkResult> results = new EnumMap<>(Engine.Kind.class);
        for (Map.Entry<Engine.Kind, NexmarkEngine> engine : engines.entrySet()) {
          try {
            if (options.warmupEvents() > 0) {
              engine.getValue().run(query, options.warmupEvents());
            }
            results.put(engine.getKey(), engine.getValue().run(query, options.events()));
          } catch (QuiverException e) {
            if (e.code() != ErrorCode.UNSUPPORTED_FEATURE) {
              LOG.error("{} on {} failed", query.name(), engine.getKey().label, e);
            } else { // not a failure of the run: what Quiver cannot run yet (windows, #18)
              LOG.warn("{} on {}: {}", query.name(), engine.getKey().label, e.getMessage());
            }
          } catch (Exception e) {
            LOG.error("{} on {} failed", query.name(), engine.getKey().label, e);
          }
        }
        out.println(line(query, results));
        out.flush();
      }
    } finally {
      for (NexmarkEngine engine : engines.values()) {
        engine.close();
      }
    }
  }

  private static NexmarkEngine create(Engine.Kind kind, NexmarkOptions options) {
    return switch (kind) {
      case FLINK -> new FlinkSqlNexmark(options);
      case QUIVER -> new QuiverNexmark(options);
      case DUCKDB -> throw new IllegalArgumentException("DuckDB does not run Nexmark");
    };
  }

  static String line(NexmarkQuery query, Map<Engine.Kind, NexmarkResult> results) {
    NexmarkResult quiver = results.get(Engine.Kind.QUIVER);
    NexmarkResult flink = results.get(Engine.Kind.FLINK);
    return String.join(
        "\t",
        List.of(
            query.name(),
            eps(quiver),
            eps(flink),
            latency(quiver, 50),
            latency(quiver, 99),
            latency(flink, 50),
            latency(flink, 99),
            quiver == null ? "-" : Long.toString(quiver.rows()),
            flink == null ? "-" : Long.toString(flink.rows())));
  }

  private static String eps(NexmarkResult result) {
    return result == null ? "-" : Long.toString(Math.round(result.eventsPerSecond()));
  }

  private static String latency(NexmarkResult result, double percentile) {
    if (result == null || result.latencyNanos().isEmpty()) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.1f", result.latencyMillis(percentile));
  }
}
