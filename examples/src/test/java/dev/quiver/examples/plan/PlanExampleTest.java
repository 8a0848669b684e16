package dev.quiver.examples.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Runs the plan example as its main does and checks every result row against plain Java. */
@ExtendWith(ArrowLeakCheck.class)
class PlanExampleTest {
  @Test
  void regionsByRevenueOfFinishedOrders(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    List<List<Object>> rows =
        PlanExample.run(dir, new PrintStream(text, true, StandardCharsets.UTF_8));

    assertThat(rows).isEqualTo(expected());
    String printed = text.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .contains("inputs=[0 BROADCAST]")
        .contains("SHUFFLE")
        .contains("MERGE")
        .contains("Scan[orders [order_id, customer_id, status, amount], units=4")
        .contains("region    orders      revenue");
  }

  /** The same query over the same orders, in plain Java. */
  private static List<List<Object>> expected() {
    Map<String, long[]> counts = new TreeMap<>();
    Map<String, BigDecimal> revenue = new TreeMap<>();
    for (long i = 0; i < PlanExample.FILES * PlanExample.ROWS_PER_FILE; i++) {
      List<Object> order = PlanExample.order(i);
      if (!order.get(2).equals("F")) {
        continue;
      }
      long customer = (Long) order.get(1);
      String region = PlanExample.REGIONS.get((int) (customer % PlanExample.REGIONS.size()));
      counts.computeIfAbsent(region, r -> new long[1])[0]++;
      revenue.merge(region, (BigDecimal) order.get(3), BigDecimal::add);
    }
    List<List<Object>> rows = new ArrayList<>();
    counts.forEach((region, n) -> rows.add(List.of(region, n[0], revenue.get(region))));
    rows.sort(Comparator.comparing(row -> (BigDecimal) row.get(2), Comparator.reverseOrder()));
    assertThat(rows).hasSize(4);
    return rows;
  }
}
