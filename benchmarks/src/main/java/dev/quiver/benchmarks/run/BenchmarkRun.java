package dev.quiver.benchmarks.run;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Everything one run of a {@link Benchmark} measured, for {@link Report} and {@link SvgChart}. */
public final class BenchmarkRun {
  /** How long an engine took to start (cluster, tables) and its JVM heap peak meanwhile. */
  public record EngineStats(double startSeconds, long heapPeakBytes, double loadAverage) {}

  public final Workload workload;
  public final BenchmarkOptions options;

  /** What sets this run apart from others of the same workload (a data layout), or empty. */
  public final String variant;

  public final List<Measurement> measurements = new ArrayList<>();
  public final Map<Engine.Kind, EngineStats> engines = new EnumMap<>(Engine.Kind.class);
  public final Map<String, FixedCost.Phases> quiverFixedCost = new LinkedHashMap<>();
  final Map<Engine.Kind, Map<String, Double>> fixedCostTotals = new EnumMap<>(Engine.Kind.class);
  public final List<String> errors = new ArrayList<>();
  String dataDescription = "";
  double loadBefore = -1;
  double loadAfter = -1;
  double generationSeconds;
  double elapsedSeconds;

  BenchmarkRun(Workload workload, BenchmarkOptions options, String variant) {
    this.workload = workload;
    this.options = options;
    this.variant = variant;
  }

  /** The title of the report: the workload, scale, parallelism and the variant. */
  public String title() {
    return workload.name()
        + " SF "
        + BenchmarkOptions.scaleName(options.scale())
        + ", parallelism "
        + options.parallelism()
        + (variant.isEmpty() ? "" : ", " + variant);
  }

  /** How the data set looked (format, size, files). */
  public String dataDescription() {
    return dataDescription;
  }

  /** The engines that ran, in report order. */
  public List<Engine.Kind> engineKinds() {
    List<Engine.Kind> kinds = new ArrayList<>();
    for (Engine.Kind kind : Engine.Kind.values()) {
      if (options.engines().contains(kind)) {
        kinds.add(kind);
      }
    }
    return kinds;
  }

  /** The measurement that counts (the last pass) of {@code query} on {@code engine}. */
  public Optional<Measurement> counted(int query, Engine.Kind engine) {
    return measurements.stream()
        .filter(m -> m.query() == query && m.engine() == engine && m.pass() == options.passes())
        .findFirst();
  }

  /** The measurements that count, in query order then engine order. */
  public List<Measurement> countedMeasurements() {
    List<Measurement> counted = new ArrayList<>();
    for (int query : options.queries()) {
      for (Engine.Kind engine : engineKinds()) {
        counted(query, engine).ifPresent(counted::add);
      }
    }
    return counted;
  }
}
