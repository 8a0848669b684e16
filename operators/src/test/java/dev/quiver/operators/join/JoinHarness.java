package dev.quiver.operators.join;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.Operator;
import dev.quiver.testing.BatchRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** Drives a join operator over test batches and collects what it emits. */
final class JoinHarness {
  private JoinHarness() {}

  /** What an operator emitted: its rows and the row count of each batch. */
  record Output(List<List<Object>> rows, List<Integer> batchSizes, List<Schema> schemas) {}

  /** The boxed rows of all {@code batches}, read before they are handed to an operator. */
  static List<List<Object>> rows(List<VectorSchemaRoot> batches) {
    List<List<Object>> rows = new ArrayList<>();
    for (VectorSchemaRoot batch : batches) {
      rows.addAll(BatchRows.rows(batch));
    }
    return rows;
  }

  /**
   * Pushes {@code build} into input 0 and {@code probe} into input 1 (the operator owns them from
   * then on), finishes both inputs and returns the output; closes the operator.
   */
  static Output run(
      Operator operator, List<VectorSchemaRoot> build, List<VectorSchemaRoot> probe, Sink sink) {
    int builds = 0;
    int probes = 0;
    try (operator) {
      for (; builds < build.size(); builds++) {
        operator.add(0, build.get(builds));
      }
      operator.finish(0);
      for (; probes < probe.size(); probes++) {
        operator.add(1, probe.get(probes));
      }
      operator.finish(1);
    } finally {
      // Batches not pushed yet are still ours (closing the one that failed again is a no-op).
      build.subList(builds, build.size()).forEach(VectorSchemaRoot::close);
      probe.subList(probes, probe.size()).forEach(VectorSchemaRoot::close);
    }
    return sink.output();
  }

  /** Collects emitted batches as rows and closes them. */
  static final class Sink implements dev.quiver.operators.BatchSink {
    private final List<List<Object>> rows = new ArrayList<>();
    private final List<Integer> sizes = new ArrayList<>();
    private final List<Schema> schemas = new ArrayList<>();

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        rows.addAll(BatchRows.rows(batch));
        sizes.add(batch.getRowCount());
        schemas.add(batch.getSchema());
      }
    }

    Output output() {
      return new Output(rows, sizes, schemas);
    }
  }

  /** Asserts that {@code actual} and {@code expected} hold the same rows, in any order. */
  static void assertSameRows(List<List<Object>> actual, List<List<Object>> expected) {
    Map<List<Object>, Integer> counts = new HashMap<>();
    for (List<Object> row : expected) {
      counts.merge(row, 1, Integer::sum);
    }
    List<List<Object>> extra = new ArrayList<>();
    for (List<Object> row : actual) {
      Integer left = counts.get(row);
      if (left == null) {
        extra.add(row);
      } else if (left == 1) {
        counts.remove(row);
      } else {
        counts.put(row, left - 1);
      }
    }
    assertThat(extra.stream().limit(10).toList())
        .as("%d unexpected rows, the first 10", extra.size())
        .isEmpty();
    assertThat(counts.entrySet().stream().limit(10).toList())
        .as("%d missing rows with their missing counts, the first 10", counts.size())
        .isEmpty();
    assertThat(actual).hasSameSizeAs(expected);
  }

  /** A {@link JoinFilter} evaluating a predicate over boxed (build row, probe row) pairs. */
  record RowFilter(String name, BiPredicate<List<Object>, List<Object>> predicate)
      implements JoinFilter {
    @Override
    public void filter(
        VectorSchemaRoot build,
        int[] buildRows,
        VectorSchemaRoot probe,
        int[] probeRows,
        int count,
        boolean[] keep) {
      for (int i = 0; i < count; i++) {
        keep[i] =
            predicate.test(BatchRows.row(build, buildRows[i]), BatchRows.row(probe, probeRows[i]));
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
