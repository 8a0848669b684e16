package dev.quiver.benchmarks;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.sql.RuntimeFilterPolicy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Runtime filters off against on, side by side in one JVM: two sessions at parallelism 2 over the
 * same tables, one with {@link RuntimeFilterPolicy#OFF} and one with a chosen policy, running each
 * query file alternately (which session goes first alternates by round); a first round warms up,
 * then the best of the rounds per query and session is printed with the row counts (which must
 * agree).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.quiver.benchmarks.RuntimeFilterComparison \
 *     DATA_DIR ROUNDS POLICY QUERY.sql...
 * </pre>
 */
public final class RuntimeFilterComparison {
  private RuntimeFilterComparison() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 4) {
      throw new IllegalArgumentException(
          "usage: RuntimeFilterComparison DATA_DIR ROUNDS BY_STATISTICS|EVERY_JOIN QUERY.sql...");
    }
    Path data = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    RuntimeFilterPolicy policy = RuntimeFilterPolicy.valueOf(args[2]);
    List<Path> queries = new ArrayList<>();
    for (int i = 3; i < args.length; i++) {
      queries.add(Path.of(args[i]));
    }
    PrintStream out = System.out;
    double[][] best = new double[queries.size()][];
    long[][] rows = new long[queries.size()][2];
    try (QuiverSession off = session(RuntimeFilterPolicy.OFF, data);
        QuiverSession on = session(policy, data)) {
      for (int q = 0; q < queries.size(); q++) {
        best[q] = new double[] {Double.MAX_VALUE, Double.MAX_VALUE};
      }
      for (int round = 0; round <= rounds; round++) {
        for (int turn = 0; turn < 2; turn++) {
          int which = (round + turn) % 2;
          QuiverSession session = which == 0 ? off : on;
          for (int q = 0; q < queries.size(); q++) {
            long start = System.nanoTime();
            rows[q][which] = run(session, sql(queries.get(q)));
            double seconds = (System.nanoTime() - start) / 1e9;
            if (round > 0) {
              best[q][which] = Math.min(best[q][which], seconds);
            }
          }
        }
      }
    }
    out.println("query\tOFF s\t" + policy + " s\trows");
    double[] total = new double[2];
    for (int q = 0; q < queries.size(); q++) {
      out.printf(
          Locale.ROOT,
          "%s\t%.3f\t%.3f\t%d%s%n",
          queries.get(q).getFileName(),
          best[q][0],
          best[q][1],
          rows[q][0],
          rows[q][0] == rows[q][1] ? "" : "\tDIFFERENT ROW COUNT " + rows[q][1]);
      total[0] += best[q][0];
      total[1] += best[q][1];
    }
    out.printf(Locale.ROOT, "total\t%.3f\t%.3f%n", total[0], total[1]);
  }

  private static QuiverSession session(RuntimeFilterPolicy policy, Path data) {
    QuiverSession session = QuiverSession.builder().parallelism(2).runtimeFilters(policy).build();
    session.registerDirectory(data);
    return session;
  }

  private static String sql(Path file) throws IOException {
    String text = Files.readString(file).strip();
    return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
  }

  private static long run(QuiverSession session, String sql) {
    long count = 0;
    try (SqlResult result = session.sql(sql)) {
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          count += batch.getRowCount();
        }
      }
    }
    return count;
  }
}
