package dev.quiver.examples.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Runs the Table API example as its main does; checks Flink SQL's rows against plain Java. */
@ExtendWith(ArrowLeakCheck.class)
class TableExampleTest {
  private static final List<String> REGIONS = List.of("AFRICA", "AMERICA", "ASIA", "EUROPE");

  @Test
  void flinkTablesThroughQuiverSqlBackIntoFlinkSql() throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    List<Row> rows = TableExample.run(new PrintStream(text, true, StandardCharsets.UTF_8));

    Map<String, long[]> counts = new TreeMap<>();
    Map<String, BigDecimal> revenue = new TreeMap<>();
    for (long id = 0; id < TableExample.ORDERS; id++) {
      String region = REGIONS.get((int) (id % TableExample.CUSTOMERS % 4));
      if (id % 3 == 1 && !region.equals("AFRICA")) {
        counts.computeIfAbsent(region, r -> new long[1])[0]++;
        revenue.merge(region, BigDecimal.valueOf(id * 37 % 10_000, 2), BigDecimal::add);
      }
    }
    List<List<Object>> expected = new ArrayList<>();
    counts.forEach((region, n) -> expected.add(List.of(region, n[0], revenue.get(region))));
    expected.sort((a, b) -> ((BigDecimal) b.get(2)).compareTo((BigDecimal) a.get(2)));

    assertThat(rows).hasSize(3);
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      assertThat(List.of(row.getField(0), row.getField(1), row.getField(2)))
          .isEqualTo(expected.get(i));
      BigDecimal mean =
          ((BigDecimal) row.getField(2))
              .divide(BigDecimal.valueOf((Long) row.getField(1)), 4, RoundingMode.HALF_UP);
      assertThat((BigDecimal) row.getField(3)).isCloseTo(mean, within(new BigDecimal("0.01")));
    }
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("Scan[orders [customer_id, status, amount]")
        .contains("BROADCAST")
        .contains("`revenue` DECIMAL(38, 2)");
  }
}
