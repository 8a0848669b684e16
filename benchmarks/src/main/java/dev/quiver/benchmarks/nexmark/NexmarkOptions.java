package dev.quiver.benchmarks.nexmark;

import dev.quiver.benchmarks.run.Engine;
import dev.quiver.nexmark.NexmarkConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;

/**
 * The command line of {@link NexmarkBenchmark}.
 *
 * @param events events generated per query run (all kinds: 2 % persons, 6 % auctions, 92 % bids)
 * @param queries the Nexmark query numbers, in order
 * @param parallelism source and operator parallelism of both engines; the MiniCluster's slots
 * @param config the stream (seed, event-time rate)
 * @param warmupEvents events of one unmeasured run of each query per engine before its measured run
 *     (0: none)
 * @param managedMemory Flink's managed memory of the MiniCluster
 * @param timeout per query and engine
 * @param engines the engines to run
 * @param flinkSql extra table configuration of the Flink SQL engine
 * @param quiverCheckpoints Quiver's checkpoint interval (its results reach the caller as
 *     checkpoints complete); empty: the session's default ({@code
 *     QuiverSession.STREAM_CHECKPOINT_MILLIS})
 * @param quiverResults where Quiver's result rows are counted: in a sink inside the job, as Flink's
 *     are (default), or at the caller after the session hands them over
 * @param quiverTaskBudget the bytes of Arrow memory each Quiver task may hold; empty: its share of
 *     the slot's managed memory, the session's default
 * @param flinkConf extra configuration of the Flink SQL engine's MiniCluster (e.g. {@code
 *     state.backend.type=forst})
 */
public record NexmarkOptions(
    long events,
    List<NexmarkQuery> queries,
    int parallelism,
    NexmarkConfig config,
    long warmupEvents,
    String managedMemory,
    Duration timeout,
    List<Engine.Kind> engines,
    Map<String, String> flinkSql,
    Optional<Duration> quiverCheckpoints,
    QuiverResults quiverResults,
    Optional<Long> quiverTaskBudget,
    Map<String, String> flinkConf) {

  /** Where Quiver's result rows are counted ({@code --quiver-results}). */
  enum QuiverResults {
    /** In a counting sink inside the job ({@code QuiverSession.count}), as Flink's side counts. */
    SINK,
    /**
     * At the caller, after the job hands them over through the collect sink ({@code SqlResult}).
     */
    CALLER
  }

  static final String USAGE =
      "quiver nexmark (NexmarkBenchmark): Nexmark queries on Quiver and Flink 2.3 streaming SQL over the same"
          + " generator.\n"
          + "  --events N             events per run (default 10,000,000)\n"
          + "  --queries LIST         e.g. 0,1,2 (default 0,1,2,5,7,8; also 17)\n"
          + "  --parallelism N        (default 2)\n"
          + "  --rate N               event-time rate, events per second of event time (default"
          + " 10,000, the spec's)\n"
          + "  --seed N               (default 0)\n"
          + "  --warmup-events N      one unmeasured run of each query first (default 3,000,000;"
          + " 0: none)\n"
          + "  --managed-memory SIZE  Flink managed memory (default 4g)\n"
          + "  --timeout-seconds N    per query and engine (default 900)\n"
          + "  --engines LIST         quiver,flink (default: both)\n"
          + "  --flink-sql KEY=VALUE  a Flink SQL table option, repeatable\n"
          + "  --flink-conf KEY=VALUE a configuration option of Flink SQL's MiniCluster, repeatable"
          + " (e.g. state.backend.type=forst)\n"
          + "  --quiver-checkpoint-interval DURATION  e.g. 10s (default: the session's, 1 s)\n"
          + "  --quiver-results sink|caller  count Quiver's rows in a sink inside the job, as"
          + " Flink's are (default), or at the caller through the session's result path\n"
          + "  --quiver-task-budget SIZE  Arrow memory per Quiver task, e.g. 16m (default: its"
          + " share of the slot's managed memory)\n";

  static NexmarkOptions parse(String... args) {
    long events = 10_000_000;
    List<NexmarkQuery> queries = new ArrayList<>();
    NexmarkQuery.DEFAULT.forEach(q -> queries.add(new NexmarkQuery(q)));
    int parallelism = 2;
    NexmarkConfig config = NexmarkConfig.DEFAULT;
    long warmupEvents = 3_000_000;
    String managedMemory = "4g";
    Duration timeout = Duration.ofMinutes(15);
    List<Engine.Kind> engines = List.of(Engine.Kind.QUIVER, Engine.Kind.FLINK);
    Optional<Duration> quiverCheckpoints = Optional.empty();
    Map<String, String> flinkSql = new LinkedHashMap<>();
    Map<String, String> flinkConf = new LinkedHashMap<>();
    Optional<Long> quiverTaskBudget = Optional.empty();
    QuiverResults quiverResults = QuiverResults.SINK;
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (name.equals("--help") || name.equals("-h")) {
        throw new IllegalArgumentException(USAGE);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value of " + name + "\n" + USAGE);
      }
      String value = args[++i];
      switch (name) {
        case "--events" -> events = Long.parseLong(value.replace("_", "").replace(",", ""));
        case "--queries" -> {
          queries.clear();
          for (String q : value.split(",")) {
            queries.add(new NexmarkQuery(Integer.parseInt(q.strip().replaceFirst("^q", ""))));
          }
        }
        case "--parallelism" -> parallelism = Integer.parseInt(value);
        case "--rate" -> config = config.withEventsPerSecond(Long.parseLong(value));
        case "--seed" -> config = config.withSeed(Long.parseLong(value));
        case "--warmup-events" -> warmupEvents = Long.parseLong(value);
        case "--managed-memory" -> managedMemory = value;
        case "--timeout-seconds" -> timeout = Duration.ofSeconds(Long.parseLong(value));
        case "--engines" -> {
          List<Engine.Kind> kinds = new ArrayList<>();
          for (String engine : value.split(",")) {
            kinds.add(
                switch (engine.strip()) {
                  case "quiver" -> Engine.Kind.QUIVER;
                  case "flink" -> Engine.Kind.FLINK;
                  default ->
                      throw new IllegalArgumentException("unknown engine " + engine + "\n" + USAGE);
                });
          }
          engines = List.copyOf(kinds);
        }
        case "--flink-sql" -> keyValue(name, value, flinkSql);
        case "--flink-conf" -> keyValue(name, value, flinkConf);
        case "--quiver-task-budget" ->
            quiverTaskBudget = Optional.of(MemorySize.parse(value).getBytes());
        case "--quiver-checkpoint-interval" -> {
          Duration interval = TimeUtils.parseDuration(value);
          if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("--quiver-checkpoint-interval must be positive");
          }
          quiverCheckpoints = Optional.of(interval);
        }
        case "--quiver-results" ->
            quiverResults =
                switch (value.strip()) {
                  case "sink" -> QuiverResults.SINK;
                  case "caller" -> QuiverResults.CALLER;
                  default ->
                      throw new IllegalArgumentException(
                          "--quiver-results takes sink or caller, not " + value);
                };
        default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
      }
    }
    if (events <= 0 || parallelism <= 0 || warmupEvents < 0) {
      throw new IllegalArgumentException(
          "--events and --parallelism must be positive, --warmup-events >= 0\n" + USAGE);
    }
    return new NexmarkOptions(
        events,
        List.copyOf(queries),
        parallelism,
        config,
        warmupEvents,
        managedMemory,
        timeout,
        engines,
        Map.copyOf(flinkSql),
        quiverCheckpoints,
        quiverResults,
        quiverTaskBudget,
        Map.copyOf(flinkConf));
  }

  private static void keyValue(String option, String value, Map<String, String> into) {
    int eq = value.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException(option + " takes KEY=VALUE, not " + value);
    }
    into.put(value.substring(0, eq), value.substring(eq + 1));
  }
}
