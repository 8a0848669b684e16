package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code INSERT INTO t SELECT ...}: the plan writes the target's columns by position, narrower
 * query columns cast into the target's types, anything else one line naming the column.
 */
class InsertPlanTest {
  private final SqlPlanner planner = new SqlPlanner(catalog());

  private static Catalog catalog() {
    Catalog catalog = TpchCatalog.sf1();
    RowSchema out =
        RowSchema.of(
            Column.notNull("key", SqlType.BIGINT),
            Column.of("name", SqlType.VARCHAR),
            Column.of("amount", SqlType.decimal(18, 2)));
    catalog.add(
        new CatalogTable(
            "out",
            out,
            0,
            List.of(SplitUnit.file("kafka:out/0", 0, SplitUnit.UNKNOWN_ROWS)),
            Map.of("connector", "kafka")));
    return catalog;
  }

  private InsertPlan plan(String sql) {
    return planner.planInsert(sql, PlannerOptions.of(2));
  }

  @Test
  void theQueryIsWrittenAsTheTargetsColumns() {
    InsertPlan insert =
        plan("INSERT INTO out SELECT n_nationkey, n_name, 1.5 FROM nation WHERE n_regionkey = 1;");
    assertThat(insert.target().name()).isEqualTo("out");
    assertThat(insert.plan().schema().columns())
        .extracting(Column::name, Column::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("key", SqlType.BIGINT),
            org.assertj.core.groups.Tuple.tuple("name", SqlType.VARCHAR),
            org.assertj.core.groups.Tuple.tuple("amount", SqlType.decimal(18, 2)));
  }

  @Test
  void aNarrowerIntegerIsCast() {
    InsertPlan insert =
        plan(
            "insert into OUT select cast(n_nationkey as integer), n_name,"
                + " cast(null as decimal(18, 2)) from nation");
    assertThat(insert.plan().schema().column(0).type()).isEqualTo(SqlType.BIGINT);
    assertThat(PlanPrinter.explain(insert.plan())).containsIgnoringCase("CAST");
  }

  @Test
  void valuesAreInsertedToo() {
    InsertPlan insert = plan("INSERT INTO out VALUES (1, 'a', 2.25), (2, 'b', 3)");
    assertThat(insert.plan().schema().size()).isEqualTo(3);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          INSERT INTO out SELECT n_nationkey, n_name FROM nation \
            | INSERT INTO out: the query has 2 columns and out has 3 (key, name, amount): nothing is written to amount
          INSERT INTO out SELECT n_nationkey, n_name, 1.5, 2 FROM nation \
            | INSERT INTO out: the query has 4 columns and out has 3 (key, name, amount): the query's column 4 has no column to go to
          INSERT INTO out SELECT n_name, n_name, 1.5 FROM nation \
            | INSERT INTO out: the query's column 1 'n_name' is VARCHAR and cannot be written to out.key BIGINT (CAST it)
          INSERT INTO out SELECT n_nationkey, n_name, 1.5e0 FROM nation \
            | INSERT INTO out: the query's column 3 'EXPR$2' is DOUBLE and cannot be written to out.amount DECIMAL(18,2) (CAST it)
          INSERT INTO outs SELECT 1, 'a', 1.5 \
            | INSERT INTO outs: there is no table outs (did you mean out?); declare it with CREATE TABLE ... WITH ('connector' = ...)
          """)
  void aQueryThatDoesNotFitIsOneLine(String sql, String message) {
    assertThatThrownBy(() -> plan(sql))
        .isInstanceOf(QuiverException.class)
        .hasMessage("[INVALID_QUERY] " + message)
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.INVALID_QUERY);
  }

  @Test
  void aColumnListAndUpsertAreNotSupported() {
    assertThatThrownBy(() -> plan("INSERT INTO out (key) VALUES (1)"))
        .hasMessage(
            "[UNSUPPORTED_FEATURE] not supported: INSERT INTO out (columns): write every column"
                + " of out in its order, without a column list");
  }

  @Test
  void aQueryIsNotAnInsertAndAnInsertIsNotAQuery() {
    assertThat(SqlPlanner.isInsert("-- load\n insert into out select 1")).isTrue();
    assertThat(SqlPlanner.isInsert("select 1")).isFalse();
    assertThatThrownBy(() -> plan("SELECT 1"))
        .hasMessage("[INVALID_QUERY] not an INSERT statement: SELECT");
    assertThatThrownBy(() -> planner.plan("INSERT INTO out VALUES (1, 'a', 1.5)", 2))
        .hasMessage(
            "[UNSUPPORTED_FEATURE] not supported: INSERT (use QuiverSession.execute or the CLI)");
  }

  @Test
  void widening() {
    assertThat(InsertTargets.widens(SqlType.INTEGER, SqlType.BIGINT)).isTrue();
    assertThat(InsertTargets.widens(SqlType.BIGINT, SqlType.INTEGER)).isFalse();
    assertThat(InsertTargets.widens(SqlType.INTEGER, SqlType.decimal(12, 2))).isTrue();
    assertThat(InsertTargets.widens(SqlType.BIGINT, SqlType.decimal(12, 2))).isFalse();
    assertThat(InsertTargets.widens(SqlType.decimal(10, 2), SqlType.decimal(12, 3))).isTrue();
    assertThat(InsertTargets.widens(SqlType.decimal(10, 2), SqlType.decimal(12, 1))).isFalse();
    assertThat(InsertTargets.widens(SqlType.decimal(10, 2), SqlType.DOUBLE)).isTrue();
    assertThat(InsertTargets.widens(SqlType.DOUBLE, SqlType.REAL)).isFalse();
    assertThat(InsertTargets.widens(SqlType.DATE, SqlType.TIMESTAMP)).isFalse();
  }
}
