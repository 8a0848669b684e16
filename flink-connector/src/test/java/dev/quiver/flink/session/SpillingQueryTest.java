package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.stage.TaskStats;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * ORDER BY and joins over more data than a task's memory budget: the sort spills sorted runs under
 * Flink's io.tmp.dirs and merges them, the hash join spills hash partitions of both sides and joins
 * them one by one; both give the same answer as without a budget, report what they spilled, and
 * leave no spill file behind.
 */
@ExtendWith(ArrowLeakCheck.class)
class SpillingQueryTest {

  @TempDir static Path dir;
  @TempDir static Path tmp;
  private static Path orders;

  @BeforeAll
  static void writeOrders() throws Exception {
    orders = OrdersFiles.writeSpillingOrders(dir);
  }

  @Test
  void aSortBeyondItsBudgetSpillsAndGivesTheSameAnswer() throws IOException {
    List<List<Object>> expected;
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      expected = session.sql(OrdersFiles.SORT_ALL).rows();
    }
    Configuration flink = new Configuration();
    flink.set(CoreOptions.TMP_DIRS, tmp.toString());
    try (QuiverSession session =
        QuiverSession.builder()
            .parallelism(2)
            .taskMemoryBudget(256 << 10)
            .configuration(flink)
            .build()) {
      session.registerTable("orders", orders.toString());
      List<List<Object>> actual;
      long spilled;
      try (SqlResult result = session.sql(OrdersFiles.SORT_ALL)) {
        actual = result.rows();
        spilled =
            result.taskStats().values().stream()
                .flatMap(List::stream)
                .mapToLong(TaskStats.Task::spilledBytes)
                .sum();
      }
      assertThat(actual).hasSize(100_000).containsExactlyElementsOf(expected);
      assertThat(spilled).isPositive();
      assertThat(session.explainAnalyze(OrdersFiles.SORT_ALL))
          .contains("spilled")
          .contains("(budget 256.0 KB)");
    }
    try (Stream<Path> left = Files.walk(tmp)) {
      assertThat(left.filter(Files::isRegularFile).filter(p -> p.toString().contains("spill")))
          .isEmpty();
    }
  }

  /** An outer join and a NOT IN (null-aware anti join) whose build sides exceed the budget. */
  @Test
  void joinsBeyondTheirBudgetSpillAndGiveTheSameAnswer() throws IOException {
    List<String> queries =
        List.of(
            "SELECT a.id, a.customer, b.id, b.amount FROM orders a LEFT JOIN orders b"
                + " ON a.id = b.id + 1 AND a.quantity <> b.quantity",
            "SELECT id, quantity FROM orders WHERE id NOT IN"
                + " (SELECT id + 1 FROM orders WHERE quantity > 10)");
    List<List<String>> expected = new ArrayList<>();
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      for (String query : queries) {
        expected.add(sorted(session.sql(query).rows()));
      }
    }
    Configuration flink = new Configuration();
    flink.set(CoreOptions.TMP_DIRS, tmp.toString());
    try (QuiverSession session =
        QuiverSession.builder()
            .parallelism(2)
            .taskMemoryBudget(1 << 20) // a probe of 8,192 rows needs ~240 KB of lookup scratch
            .configuration(flink)
            .build()) {
      session.registerTable("orders", orders.toString());
      for (int q = 0; q < queries.size(); q++) {
        try (SqlResult result = session.sql(queries.get(q))) {
          List<String> actual = sorted(result.rows());
          long spilled =
              result.taskStats().values().stream()
                  .flatMap(List::stream)
                  .mapToLong(TaskStats.Task::spilledBytes)
                  .sum();
          assertThat(actual).as(queries.get(q)).isNotEmpty().isEqualTo(expected.get(q));
          assertThat(spilled).as(queries.get(q)).isPositive();
        }
      }
    }
    try (Stream<Path> left = Files.walk(tmp)) {
      assertThat(left.filter(Files::isRegularFile).filter(p -> p.toString().contains("spill")))
          .isEmpty();
    }
  }

  private static List<String> sorted(List<List<Object>> rows) {
    return rows.stream().map(String::valueOf).sorted().toList();
  }
}
