package dev.quiver.benchmarks.serve;

import dev.quiver.cli.tpch.TpchCatalog;
import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.server.Authentication;
import dev.quiver.server.QuiverFlightServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A load test of {@code quiver serve}'s Flight SQL server, on loopback in this JVM: N clients, each
 * its own connection, run M TPC-H queries each (round robin over the chosen queries, each client
 * starting at a different one), reading every batch. It prints throughput, latency percentiles
 * overall and per query, and fails when a query fails, when one query's row count differs between
 * runs, or when anything is left afterwards: a query the server still reads, a result the session
 * still holds, a Flink job that has not ended, or Arrow memory not returned.
 *
 * <pre>
 *   java -Xmx4g --add-opens=java.base/java.nio=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *       dev.quiver.benchmarks.serve.FlightSqlLoad --sf 0.1 --clients 8 --per-client 5
 * </pre>
 *
 * Options: {@code --sf} (0.1), {@code --data DIR} (default {@code ~/.cache/quiver/tpch-sf<SF>},
 * generated when missing), {@code --clients} (8), {@code --per-client} (5), {@code --queries}
 * (1,3,5,6,10,12,14,18), {@code --parallelism} (2), {@code --max-concurrent-queries} (2), {@code
 * --timeout-seconds} (600, for the whole run).
 */
public final class FlightSqlLoad {
  private FlightSqlLoad() {}

  /** What to run. */
  public record Options(
      double scale,
      Path data,
      int clients,
      int perClient,
      List<Integer> queries,
      int parallelism,
      int maxConcurrentQueries,
      Duration timeout) {}

  /** What was measured: milliseconds per run by query, the wall time, the row counts. */
  public record Result(
      Map<Integer, List<Long>> millis, long wallMillis, Map<Integer, Long> rows, int runs) {}

  public static void main(String[] args) throws Exception {
    Options options = parse(args);
    Result result = run(options);
    System.out.print(report(options, result));
  }

  static Options parse(String... args) {
    double scale = 0.1;
    Path data = null;
    int clients = 8;
    int perClient = 5;
    List<Integer> queries = List.of(1, 3, 5, 6, 10, 12, 14, 18);
    int parallelism = 2;
    int maxConcurrent = 2;
    long timeout = 600;
    for (int i = 0; i < args.length; i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + args[i] + " needs a value");
      }
      String value = args[i + 1];
      switch (args[i]) {
        case "--sf" -> scale = Double.parseDouble(value);
        case "--data" -> data = Path.of(value);
        case "--clients" -> clients = Integer.parseInt(value);
        case "--per-client" -> perClient = Integer.parseInt(value);
        case "--queries" ->
            queries =
                List.of(value.split(",")).stream().map(q -> Integer.valueOf(q.trim())).toList();
        case "--parallelism" -> parallelism = Integer.parseInt(value);
        case "--max-concurrent-queries" -> maxConcurrent = Integer.parseInt(value);
        case "--timeout-seconds" -> timeout = Long.parseLong(value);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (data == null) {
      String scaleText = java.math.BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
      data = Path.of(System.getProperty("user.home"), ".cache", "quiver", "tpch-sf" + scaleText);
    }
    return new Options(
        scale,
        data,
        clients,
        perClient,
        queries,
        parallelism,
        maxConcurrent,
        Duration.ofSeconds(timeout));
  }

  /** Runs the load; throws when a query fails or something is left afterwards. */
  public static Result run(Options options) throws Exception {
    if (!Files.isRegularFile(options.data().resolve(TpchGenerator.SUCCESS))) {
      new TpchGenerator(options.data(), options.scale()).generate();
    }
    BufferAllocator root = Allocators.root();
    long bytesBefore = root.getAllocatedMemory();
    Map<Integer, List<Long>> millis = new ConcurrentHashMap<>();
    Map<Integer, Long> rows = new ConcurrentHashMap<>();
    long wall;
    try (QuiverSession session =
        QuiverSession.builder()
            .parallelism(options.parallelism())
            .configuration(slots(options))
            .build()) {
      TpchCatalog.register(session, options.data());
      try (QuiverFlightServer server =
          QuiverFlightServer.builder(session)
              .port(0)
              .authentication(Authentication.password("load", "load"))
              .maxConcurrentQueries(options.maxConcurrentQueries())
              .maxQueuedQueries(options.clients())
              .start()) {
        ExecutorService pool = Executors.newFixedThreadPool(options.clients());
        long start = System.nanoTime();
        try {
          List<Future<?>> clients = new ArrayList<>();
          for (int c = 0; c < options.clients(); c++) {
            int client = c;
            clients.add(pool.submit(() -> client(server, options, client, millis, rows)));
          }
          long deadline = System.nanoTime() + options.timeout().toNanos();
          for (Future<?> client : clients) {
            client.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          }
        } finally {
          pool.shutdownNow();
        }
        wall = (System.nanoTime() - start) / 1_000_000;
        awaitNothingLeft(server, session);
      }
    }
    long leaked = root.getAllocatedMemory() - bytesBefore;
    if (leaked != 0) {
      throw new IllegalStateException("Arrow memory not returned after the load: " + leaked + " B");
    }
    int runs = millis.values().stream().mapToInt(List::size).sum();
    return new Result(new TreeMap<>(millis), wall, new TreeMap<>(rows), runs);
  }

  /** A local cluster with slots for every query that may run at once. */
  private static org.apache.flink.configuration.Configuration slots(Options options) {
    org.apache.flink.configuration.Configuration configuration =
        new org.apache.flink.configuration.Configuration();
    configuration.set(
        org.apache.flink.configuration.TaskManagerOptions.NUM_TASK_SLOTS,
        options.maxConcurrentQueries() * options.parallelism());
    return configuration;
  }

  // Arrow's FlightClient, FlightSqlClient and FlightStream declare close() throws
  // InterruptedException, which try-with-resources here simply passes on as the client's failure.
  @SuppressWarnings("try")
  private static Void client(
      QuiverFlightServer server,
      Options options,
      int client,
      Map<Integer, List<Long>> millis,
      Map<Integer, Long> rows)
      throws Exception {
    try (BufferAllocator allocator = Allocators.newChild("load client " + client);
        FlightClient flight = FlightClient.builder(allocator, server.location()).build();
        FlightSqlClient sql = new FlightSqlClient(flight)) {
      CallOption token = flight.authenticateBasicToken("load", "load").orElseThrow();
      for (int i = 0; i < options.perClient(); i++) {
        int query = options.queries().get((client + i) % options.queries().size());
        long start = System.nanoTime();
        FlightInfo info = sql.execute(TpchQueries.text(query), token);
        long count = 0;
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), token)) {
          while (stream.next()) {
            count += stream.getRoot().getRowCount();
          }
        }
        millis
            .computeIfAbsent(query, q -> Collections.synchronizedList(new ArrayList<>()))
            .add((System.nanoTime() - start) / 1_000_000);
        Long before = rows.putIfAbsent(query, count);
        if (before != null && before != count) {
          throw new IllegalStateException(
              "q" + query + " gave " + count + " rows, and " + before + " in another run");
        }
      }
    }
    return null;
  }

  private static void awaitNothingLeft(QuiverFlightServer server, QuiverSession session)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (server.activeQueries() > 0
        || session.openQueries() > 0
        || session.unfinishedJobs().orElse(0) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "left after the load: "
                + server.activeQueries()
                + " queries read, "
                + session.openQueries()
                + " results open, "
                + session.unfinishedJobs().orElse(0)
                + " Flink jobs");
      }
      Thread.sleep(20);
    }
  }

  /** The report: throughput, and latency percentiles overall and per query. */
  static String report(Options options, Result result) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Flight SQL load: TPC-H SF %s, %d clients x %d queries, parallelism %d, %d at once%n",
            options.scale(),
            options.clients(),
            options.perClient(),
            options.parallelism(),
            options.maxConcurrentQueries()));
    out.append(
        String.format(
            Locale.ROOT,
            "%d queries in %.1f s: %.2f queries/s%n",
            result.runs(),
            result.wallMillis() / 1000.0,
            result.runs() * 1000.0 / Math.max(1, result.wallMillis())));
    List<Long> all = new ArrayList<>();
    result.millis().values().forEach(all::addAll);
    out.append(line("all", all));
    for (Map.Entry<Integer, List<Long>> query : result.millis().entrySet()) {
      out.append(line("q" + query.getKey(), query.getValue()));
    }
    out.append("no query, result, Flink job or Arrow memory left afterwards\n");
    return out.toString();
  }

  private static String line(String name, List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return String.format(
        Locale.ROOT,
        "%-4s n=%-3d latency ms p50 %6d  p90 %6d  p99 %6d  max %6d%n",
        name,
        sorted.size(),
        percentile(sorted, 0.50),
        percentile(sorted, 0.90),
        percentile(sorted, 0.99),
        sorted.get(sorted.size() - 1));
  }

  /** The nearest-rank percentile of sorted values. */
  static long percentile(List<Long> sorted, double p) {
    int rank = (int) Math.ceil(p * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
