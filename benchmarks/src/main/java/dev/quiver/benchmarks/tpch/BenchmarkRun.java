package dev.quiver.benchmarks.tpch;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one run of {@link TpchBenchmark} measured, for {@link Report} and {@link SvgChart}.
 */
final class BenchmarkRun {
  /** How long an engine took to start (cluster, tables) and its JVM heap peak meanwhile. */
  record EngineStats(double startSeconds, long heapPeakBytes, double loadAverage) {}

  final BenchmarkOptions options;
  final List<Measurement> measurements = new ArrayList<>();
  final Map<Engine.Kind, EngineStats> engines = new EnumMap<>(Engine.Kind.class);
  final Map<String, FixedCost.Phases> quiverFixedCost = new LinkedHashMap<>();
  final Map<Engine.Kind, Map<String, Double>> fixedCostTotals = new EnumMap<>(Engine.Kind.class);
  final List<String> errors = new ArrayList<>();
  String dataDescription = "";
  double loadBefore = -1;
  double loadAfter = -1;
  double generationSeconds;
  double elapsedSeconds;

  BenchmarkRun(BenchmarkOptions options) {
    this.options = options;
  }

  /** The engines that ran, in report order. */
  List<Engine.Kind> engineKinds() {
    List<Engine.Kind> kinds = new ArrayList<>();
    for (Engine.Kind kind : Engine.Kind.values()) {
      if (options.engines().contains(kind)) {
        kinds.add(kind);
      }
    }
    return kinds;
  }

  /** The measurement that counts (the last pass) of {@code query} on {@code engine}. */
  Optional<Measurement> counted(int query, Engine.Kind engine) {
    return measurements.stream()
        .filter(m -> m.query() == query && m.engine() == engine && m.pass() == options.passes())
        .findFirst();
  }

  /** The measurements that count, in query order then engine order. */
  List<Measurement> countedMeasurements() {
    List<Measurement> counted = new ArrayList<>();
    for (int query : options.queries()) {
      for (Engine.Kind engine : engineKinds()) {
        counted(query, engine).ifPresent(counted::add);
      }
    }
    return counted;
  }
}
