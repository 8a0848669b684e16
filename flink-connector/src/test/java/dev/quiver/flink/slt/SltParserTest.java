package dev.quiver.flink.slt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

/** The {@code .slt} format without a cluster: parsing records and rendering result values. */
class SltParserTest {
  @Test
  void parsesTablesQueriesStatementsAndSkips() {
    List<SltRecord> records =
        SltParser.parse(
            "t.slt",
            """
            # a comment
            table t (id INTEGER, name VARCHAR, price DECIMAL(6, 2), day DATE)
            1, 'a, b', 1.5, 2024-02-29
            NULL, 'NULL', NULL, NULL
            2, '', 0, 1969-12-31

            skipif quiver some reason
            query IT rowsort
            SELECT id, name
            FROM t
            ----
            1 a, b
            NULL NULL

            query I
            SELECT id FROM t WHERE false

            statement error not supported: window
            SELECT rank() OVER () FROM t
            """);
    assertThat(records).hasSize(4);
    SltRecord.Table table = (SltRecord.Table) records.get(0);
    assertThat(table.location()).hasToString("t.slt:2");
    assertThat(table.columns())
        .extracting(TableColumn::arrowType)
        .contains(new ArrowType.Decimal(6, 2, 128));
    assertThat(table.rows())
        .containsExactly(
            List.of(1, "a, b", new BigDecimal("1.50"), LocalDate.of(2024, 2, 29)),
            Arrays.asList(null, "NULL", null, null),
            List.of(2, "", new BigDecimal("0.00"), LocalDate.of(1969, 12, 31)));
    SltRecord.Query query = (SltRecord.Query) records.get(1);
    assertThat(query.location()).hasToString("t.slt:8");
    assertThat(query.skipReason("quiver")).contains("some reason");
    assertThat(query.rowsort()).isTrue();
    assertThat(query.sql()).isEqualTo("SELECT id, name\nFROM t");
    assertThat(query.expected()).containsExactly("1 a, b", "NULL NULL");
    assertThat(((SltRecord.Query) records.get(2)).expected()).isEmpty();
    SltRecord.StatementError error = (SltRecord.StatementError) records.get(3);
    assertThat(error.message()).isEqualTo("not supported: window");
    assertThat(error.skips()).isEmpty();
  }

  @Test
  void mistakesNameTheLine() {
    assertThatThrownBy(() -> SltParser.parse("t.slt", "table t (a INTEGER)\n1, 2\n"))
        .hasMessage("t.slt:2: 2 values for 1 columns");
    assertThatThrownBy(() -> SltParser.parse("t.slt", "table t (a DECIMAL(3,1))\n1.25\n"))
        .hasMessageStartingWith("t.slt:2: column a:");
    assertThatThrownBy(() -> SltParser.parse("t.slt", "\nquery IX\nSELECT 1\n"))
        .hasMessage("t.slt:2: type letters are IRNTBDP: IX");
    assertThatThrownBy(() -> SltParser.parse("t.slt", "skipif postgres why\nquery I\nSELECT 1\n"))
        .hasMessageStartingWith("t.slt:1: skipif names an unknown engine postgres");
    assertThatThrownBy(() -> SltParser.parse("t.slt", "select 1\n"))
        .hasMessageStartingWith("t.slt:1: expected table, query");
  }

  @Test
  void rendersValuesAsDocumented() {
    assertThat(
            ResultText.lines(
                List.of(
                    Arrays.asList(
                        null,
                        -12L,
                        new BigDecimal("2.50"),
                        1.0 / 3,
                        3.0,
                        "",
                        true,
                        LocalDate.of(2024, 2, 29)))))
        .containsExactly("NULL -12 2.50 0.333333333333 3.0 (empty) true 2024-02-29");
    assertThat(ResultText.text(0.1 + 0.2)).isEqualTo("0.3");
    assertThat(ResultText.text(Double.NaN)).isEqualTo("NaN");
  }
}
