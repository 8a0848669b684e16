package dev.quiver.benchmarks.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The totals of a run's counted pass over some of its queries: per engine the seconds of the
 * queries it answered and how many it did not; per peer of Quiver, Quiver's seconds over the peer's
 * on the queries both answered, and the geometric mean of the per-query ratios.
 */
public final class Totals {
  private static final int ENGINES = Engine.Kind.values().length;

  private final double[] seconds = new double[ENGINES];
  private final int[] unanswered = new int[ENGINES];
  private final double[] quiverCommon = new double[ENGINES];
  private final double[] peerCommon = new double[ENGINES];
  private final double[] logRatioSum = new double[ENGINES];
  private final int[] ratioCount = new int[ENGINES];

  private Totals() {}

  /** The totals of {@code queries} in {@code run}. */
  public static Totals of(BenchmarkRun run, List<Integer> queries) {
    Totals totals = new Totals();
    for (int query : queries) {
      for (Engine.Kind kind : run.engineKinds()) {
        Optional<Measurement> m = run.counted(query, kind);
        if (m.isPresent() && m.get().answered()) {
          totals.seconds[kind.ordinal()] += m.get().seconds();
        } else {
          totals.unanswered[kind.ordinal()]++;
        }
        if (kind != Engine.Kind.QUIVER) {
          ratio(run, query, kind)
              .ifPresent(
                  ratio -> {
                    int k = kind.ordinal();
                    totals.quiverCommon[k] +=
                        run.counted(query, Engine.Kind.QUIVER).get().seconds();
                    totals.peerCommon[k] += run.counted(query, kind).get().seconds();
                    totals.logRatioSum[k] += Math.log(ratio);
                    totals.ratioCount[k]++;
                  });
        }
      }
    }
    return totals;
  }

  /** The queries every engine of {@code run} answered in the counted pass. */
  public static List<Integer> answeredByAll(BenchmarkRun run) {
    List<Integer> common = new ArrayList<>();
    for (int query : run.options.queries()) {
      boolean all = true;
      for (Engine.Kind kind : run.engineKinds()) {
        all &= run.counted(query, kind).map(Measurement::answered).orElse(false);
      }
      if (all) {
        common.add(query);
      }
    }
    return common;
  }

  /** Quiver's seconds over {@code peer}'s on {@code query}, if both answered it. */
  static Optional<Double> ratio(BenchmarkRun run, int query, Engine.Kind peer) {
    Optional<Measurement> q = run.counted(query, Engine.Kind.QUIVER);
    Optional<Measurement> o = run.counted(query, peer);
    if (q.isPresent() && o.isPresent() && q.get().answered() && o.get().answered()) {
      return Optional.of(q.get().seconds() / Math.max(o.get().seconds(), 1e-6));
    }
    return Optional.empty();
  }

  /** The seconds of the queries {@code kind} answered. */
  public double seconds(Engine.Kind kind) {
    return seconds[kind.ordinal()];
  }

  /** How many of the queries {@code kind} did not answer (failed, timed out, not run). */
  public int unanswered(Engine.Kind kind) {
    return unanswered[kind.ordinal()];
  }

  /** Quiver's total over {@code peer}'s, on the queries both answered. */
  public Optional<Double> ratio(Engine.Kind peer) {
    int k = peer.ordinal();
    return peerCommon[k] > 0 ? Optional.of(quiverCommon[k] / peerCommon[k]) : Optional.empty();
  }

  /** The geometric mean of Quiver's per-query ratios to {@code peer}. */
  public Optional<Double> geometricMean(Engine.Kind peer) {
    int n = ratioCount[peer.ordinal()];
    return n == 0 ? Optional.empty() : Optional.of(Math.exp(logRatioSum[peer.ordinal()] / n));
  }
}
