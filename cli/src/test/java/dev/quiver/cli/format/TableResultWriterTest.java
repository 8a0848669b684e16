package dev.quiver.cli.format;

import static dev.quiver.cli.format.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.io.StringWriter;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class TableResultWriterTest {
  @Test
  void alignsNumbersRightAndTextLeftAndShowsNull(BufferAllocator allocator) throws Exception {
    String table =
        TestBatches.write(
            ResultFormat.TABLE,
            batch(
                allocator,
                new Long[] {1L, 1000L},
                new String[] {"bolt", null},
                new String[] {"0.25", "120.00"},
                new String[] {"1998-12-01", null},
                new Long[] {0L, null},
                new Double[] {0.5, null},
                new Boolean[] {true, null}),
            batch(
                allocator,
                new Long[] {null},
                new String[] {"tab\there"},
                new String[] {null},
                new String[] {"2000-01-01"},
                new Long[] {null},
                new Double[] {-12.25},
                new Boolean[] {false}));
    assertThat(table)
        .isEqualTo(
            "  id | name      |  price | day        | at                  |  ratio | ok\n"
                + "-----+-----------+--------+------------+---------------------+--------+------\n"
                + "   1 | bolt      |   0.25 | 1998-12-01 | 1970-01-01T00:00:00 |    0.5 | true\n"
                + "1000 | NULL      | 120.00 | NULL       | NULL                |   NULL | NULL\n"
                + "NULL | tab\\there |   NULL | 2000-01-01 | NULL                | -12.25 | false\n"
                + "(3 rows)\n");
  }

  @Test
  void keepsTheFirstRowsAndCountsAll(BufferAllocator allocator) throws Exception {
    StringWriter out = new StringWriter();
    TableResultWriter writer = new TableResultWriter(out, 2);
    writer.begin(TestBatches.SCHEMA);
    Boolean[] ok = {true, false};
    for (long first : new long[] {1, 3, 5}) {
      try (var batch =
          batch(
              allocator,
              new Long[] {first, first + 1},
              new String[] {"a", "b"},
              new String[] {null, null},
              new String[] {null, null},
              new Long[] {null, null},
              new Double[] {null, null},
              ok)) {
        writer.write(batch);
      }
    }
    writer.end();
    assertThat(out.toString())
        .startsWith("id | name | price | day  | at   | ratio | ok\n")
        .contains("\n 1 | a    |  NULL | NULL | NULL |  NULL | true\n 2 | b ")
        .doesNotContain(" 3 | a")
        .endsWith("(6 rows, the first 2 shown)\n");
  }

  @Test
  void noRows(BufferAllocator allocator) throws Exception {
    String table = TestBatches.write(ResultFormat.TABLE, TestBatches.empty(allocator));
    assertThat(table)
        .isEqualTo(
            "id | name | price | day | at | ratio | ok\n"
                + "---+------+-------+-----+----+-------+---\n"
                + "(0 rows)\n");
  }

  @Test
  void textTableWidensToTheLongestCellAndKeepsRowsOnOneLine() throws Exception {
    TextTable table = new TextTable(List.of("query", "rows"), new boolean[] {false, true});
    table.add("q1", "4");
    table.add("multi\nline", "123456");
    table.add("日本", "7");
    StringWriter out = new StringWriter();
    table.render(out);
    assertThat(out.toString())
        .isEqualTo(
            "query       |   rows\n"
                + "------------+-------\n"
                + "q1          |      4\n"
                + "multi\\nline | 123456\n"
                + "日本          |      7\n");
  }
}
