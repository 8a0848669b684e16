package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.type.SqlType;
import dev.quiver.stage.StagePlanner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The TPC-DS queries that use ROLLUP (and q27, q36, which write one by hand with untyped NULLs), as
 * DuckDB ships their text, plan against the TPC-DS schema ({@code grouping_sets/tpcds_schema.txt}:
 * table, then column:type) or fail only for a feature still missing.
 */
class TpcdsRollupPlanTest {
  private static final Map<String, Long> ROWS =
      Map.of(
          "store_sales", 2_880_404L,
          "catalog_sales", 1_441_548L,
          "web_sales", 719_384L,
          "store_returns", 287_514L,
          "catalog_returns", 144_067L,
          "web_returns", 71_763L,
          "inventory", 11_745_000L,
          "customer", 100_000L,
          "customer_demographics", 1_920_800L,
          "date_dim", 73_049L);

  @ParameterizedTest(name = "q{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "05|",
        "18|",
        "22|",
        "27|",
        "36|",
        "67|",
        "70|",
        "77|",
        "80|",
        "86|"
      })
  void plansOrNamesTheMissingFeature(String query, String missing) throws IOException {
    String sql = read("/tpcds/" + query + ".sql"); // the repository's one copy, tpcds/queries
    SqlPlanner planner = new SqlPlanner(catalog());
    try {
      PlanNode plan = planner.plan(sql, 2);
      assertThat(missing).as("q%s plans", query).isNull();
      String stages = StagePlanner.withDefaultRewrites().plan(plan).explain();
      assertThat(stages).contains("Stage");
      if (!query.equals("27") && !query.equals("36")) { // these two write their ROLLUP as a UNION
        assertThat(PlanPrinter.explain(plan)).contains("Expand[");
      }
    } catch (RuntimeException e) {
      assertThat(missing).as("q%s fails with %s", query, e.getMessage()).isNotNull();
      assertThat(e).hasMessageContaining(missing);
    }
  }

  private static Catalog catalog() throws IOException {
    Catalog catalog = new Catalog();
    Pattern column = Pattern.compile("([a-z_0-9]+):([A-Z]+)(?:\\((\\d+),(\\d+)\\))?");
    for (String line : read("/grouping_sets/tpcds_schema.txt").split("\n")) {
      String[] parts = line.trim().split(" ");
      List<Column> columns = new ArrayList<>();
      for (int i = 1; i < parts.length; i++) {
        Matcher m = column.matcher(parts[i]);
        assertThat(m.matches()).as(parts[i]).isTrue();
        SqlType type =
            switch (m.group(2)) {
              case "BIGINT" -> SqlType.BIGINT;
              case "INTEGER" -> SqlType.INTEGER;
              case "DATE" -> SqlType.DATE;
              case "VARCHAR" -> SqlType.VARCHAR;
              default ->
                  SqlType.decimal(Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
            };
        columns.add(Column.of(m.group(1), type));
      }
      long rows = ROWS.getOrDefault(parts[0], 1_000L);
      List<SplitUnit> units =
          List.of(SplitUnit.file(parts[0] + "/part-0.parquet", rows * columns.size() * 8, rows));
      catalog.add(
          new CatalogTable(
              parts[0], new RowSchema(columns), rows, units, Map.of("format", "parquet")));
    }
    return catalog;
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = TpcdsRollupPlanTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
