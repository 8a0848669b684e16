package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.format.TestBatches;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileWriters;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver sql} and {@code quiver explain} end to end, in this JVM, over a Parquet file: exact
 * output of each format and the exit status and message of each kind of failure. Every run starts
 * its own MiniCluster (about two seconds), so the cases are few.
 */
@ExtendWith(ArrowLeakCheck.class)
class SqlCommandTest {
  private static final String QUERY =
      "SELECT id, name, price, day, at, ratio, ok FROM t ORDER BY id";

  @TempDir static Path dir;
  private static Path file;

  @BeforeAll
  static void writeTable() throws IOException {
    Files.createDirectories(dir.resolve("catalog"));
    file = dir.resolve("catalog").resolve("t.parquet");
    try (BufferAllocator allocator = Allocators.newChild("write t")) {
      VectorSchemaRoot batch =
          TestBatches.batch(
              allocator,
              new Long[] {2L, 1L, 3L},
              new String[] {"Smith, \"Jr.\"\nline 2", "plain", null},
              new String[] {null, "1234.50", "0.05"},
              new String[] {null, "1998-12-01", "2024-02-29"},
              new Long[] {null, 912_500_000_000_000L, 1_709_164_800_250_000L},
              new Double[] {null, 0.1, 1e-5},
              new Boolean[] {false, true, null});
      FileWriters.write(
          new OneBatchReader(allocator, TestBatches.SCHEMA, batch),
          FileFormat.PARQUET,
          file,
          allocator);
    }
  }

  @Test
  void csvIsExact() {
    Cli.Run run = Cli.run("sql", "--table", "t=" + file, "--format", "csv", "-p", "1", QUERY);
    assertThat(run.err()).isEmpty();
    assertThat(run.status()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "id,name,price,day,at,ratio,ok\n"
                + "1,plain,1234.50,1998-12-01,1998-12-01T08:13:20,0.1,true\n"
                + "2,\"Smith, \"\"Jr.\"\"\nline 2\",,,,,false\n"
                + "3,,0.05,2024-02-29,2024-02-29T00:00:00.25,1.0E-5,\n");
  }

  @Test
  void jsonLinesToAFile() throws IOException {
    Path output = dir.resolve("out").resolve("result.jsonl");
    Cli.Run run =
        Cli.run(
            "sql",
            "--catalog",
            dir.resolve("catalog").toString(),
            "--format=json",
            "--output",
            output.toString(),
            "SELECT id, name, price * 2 AS doubled, day FROM t WHERE id <> 3 ORDER BY id");
    assertThat(run.err()).isEmpty();
    assertThat(run.status()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(Files.readString(output))
        .isEqualTo(
            "{\"id\":1,\"name\":\"plain\",\"doubled\":2469.00,\"day\":\"1998-12-01\"}\n"
                + "{\"id\":2,\"name\":\"Smith, \\\"Jr.\\\"\\nline 2\",\"doubled\":null,\"day\":null}\n");
    try (var files = Files.list(output.getParent())) {
      assertThat(files).containsExactly(output); // no temporary file left
    }
  }

  @Test
  void explainPrintsTheStages() {
    Cli.Run run =
        Cli.run(
            "explain",
            "--catalog",
            dir.resolve("catalog").toString(),
            "-p",
            "2",
            "SELECT ok, count(*) FROM t GROUP BY ok");
    assertThat(run.err()).isEmpty();
    assertThat(run.status()).isZero();
    assertThat(run.out()).contains("Stage 0", "Aggregate").endsWith("\n");
  }

  @Test
  void explainAnalyzeRunsTheQueryAndShowsEachTask() {
    Cli.Run run =
        Cli.run(
            "explain",
            "--analyze",
            "--catalog",
            dir.resolve("catalog").toString(),
            "-p",
            "2",
            "SELECT ok, count(*) FROM t GROUP BY ok");
    assertThat(run.err()).isEmpty();
    assertThat(run.status()).isZero();
    assertThat(run.out())
        .startsWith("-- ")
        .contains("Stage 0", "  | task 0: in ", "  | task 1: in ", "busy ");
  }

  @Test
  void badSqlNamesLineAndColumn() {
    Cli.Run run = Cli.run("sql", "--table", "t=" + file, "SELECT id\nFROM t WHERE");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("quiver: [SYNTAX_ERROR] syntax error at line 2, column")
        .hasLineCount(1);
  }

  @Test
  void statementThatIsNotAQueryIsNotSupported() {
    Cli.Run run = Cli.run("sql", "create view v as select 1");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "quiver: [UNSUPPORTED_FEATURE] not supported: CREATE VIEW" + System.lineSeparator());
  }

  @Test
  void createTableIsRunAndItsMistakesNamed() {
    Cli.Run run = Cli.run("sql", "create table x (a int)");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "quiver: [SYNTAX_ERROR] line 1, column 23: expected WITH ('connector' = ...) after the"
                + " columns of x, found the end of the statement"
                + System.lineSeparator());
  }

  @Test
  void missingTableFile() {
    Path missing = dir.resolve("missing.parquet");
    Cli.Run run = Cli.run("sql", "--table", "m=" + missing, "SELECT * FROM m");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("quiver: [FILE_NOT_FOUND]")
        .contains(missing.toString())
        .hasLineCount(1);
  }

  @Test
  void failureWhileRunningLeavesNoOutputFile() {
    Path output = dir.resolve("failed.csv");
    Cli.Run run =
        Cli.run(
            "sql",
            "--table",
            "t=" + file,
            "--format",
            "csv",
            "-o",
            output.toString(),
            "SELECT id / (id - id) FROM t");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).startsWith("quiver: [DIVISION_BY_ZERO]").hasLineCount(1);
    assertThat(output).doesNotExist();
    assertThat(output.resolveSibling(".failed.csv.tmp")).doesNotExist();
  }

  @Test
  void severalFilesRunInOneSessionEachIntoItsOwnFileAndAFailureDoesNotStopTheOthers()
      throws IOException {
    Path queries = Files.createDirectories(dir.resolve("queries"));
    Files.writeString(queries.resolve("a.sql"), "SELECT id FROM t ORDER BY id");
    Files.writeString(queries.resolve("b.sql"), "SELECT id / (id - id) FROM t");
    Files.writeString(queries.resolve("c.sql"), "SELECT count(*) AS n FROM t");
    Path out = dir.resolve("results");
    Files.createDirectories(out);
    Files.writeString(out.resolve("b.csv"), "an answer of an earlier run\n");
    Files.writeString(out.resolve("c.err"), "an error of an earlier run\n");

    Cli.Run run =
        Cli.run(
            "sql",
            "--catalog",
            dir.resolve("catalog").toString(),
            "-f",
            queries.resolve("a.sql").toString(),
            "-f",
            queries.resolve("b.sql").toString(),
            "-f",
            queries.resolve("c.sql").toString(),
            "-f",
            queries.resolve("missing.sql").toString(),
            "--output-dir",
            out.toString());

    assertThat(run.status()).isEqualTo(1);
    assertThat(Files.readString(out.resolve("a.csv"))).isEqualTo("id\n1\n2\n3\n");
    assertThat(Files.readString(out.resolve("c.csv"))).isEqualTo("n\n3\n");
    assertThat(Files.readString(out.resolve("b.err")))
        .startsWith("[DIVISION_BY_ZERO]")
        .endsWith("\n")
        .hasLineCount(1);
    assertThat(Files.readString(out.resolve("missing.err")))
        .isEqualTo("query file " + queries.resolve("missing.sql") + " does not exist\n");
    assertThat(out.resolve("b.csv")).doesNotExist(); // not the earlier run's answer
    assertThat(out.resolve("c.err")).doesNotExist();
    try (var files = Files.list(out)) {
      assertThat(files.map(f -> f.getFileName().toString()).sorted())
          .containsExactly("a.csv", "b.err", "c.csv", "missing.err");
    }
    assertThat(run.out())
        .containsPattern("a\\.sql: 3 rows in \\d+\\.\\d{3} s -> " + out.resolve("a.csv"))
        .contains("b.sql: FAILED -> " + out.resolve("b.err"));
    assertThat(run.err())
        .contains("quiver: " + queries.resolve("b.sql") + ": [DIVISION_BY_ZERO]")
        .endsWith(
            "quiver: 2 of 4 queries failed: "
                + queries.resolve("b.sql")
                + ", "
                + queries.resolve("missing.sql")
                + "\n");
  }

  @Test
  void severalFilesNeedAnOutputDirectoryOfDistinctNames() {
    Cli.Run two = Cli.run("sql", "-t", "t=" + file, "-f", "a.sql", "-f", "b.sql");
    assertThat(two.status()).isEqualTo(2);
    assertThat(two.err()).contains("--output-dir").hasLineCount(1);
    Cli.Run same = Cli.run("sql", "-f", "x/q.sql", "-f", "y/q.sql", "--output-dir", dir.toString());
    assertThat(same.status()).isEqualTo(2);
    assertThat(same.err()).contains("x/q.sql and y/q.sql would both write q.*");
    Cli.Run text = Cli.run("sql", "--output-dir", dir.toString(), "SELECT 1");
    assertThat(text.status()).isEqualTo(2);
    assertThat(text.err()).contains("give -f FILE");
  }

  /** An Arrow reader of one batch, which it moves into its root and closes. */
  private static final class OneBatchReader extends ArrowReader {
    private final Schema schema;
    private VectorSchemaRoot batch;

    OneBatchReader(BufferAllocator allocator, Schema schema, VectorSchemaRoot batch) {
      super(allocator);
      this.schema = schema;
      this.batch = batch;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (batch == null) {
        return false;
      }
      try (VectorSchemaRoot source = batch) {
        VectorSchemaRoot root = getVectorSchemaRoot();
        List<org.apache.arrow.vector.FieldVector> vectors = source.getFieldVectors();
        for (int i = 0; i < vectors.size(); i++) {
          vectors.get(i).makeTransferPair(root.getVector(i)).transfer();
        }
        root.setRowCount(source.getRowCount());
      }
      batch = null;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {
      if (batch != null) {
        batch.close();
      }
    }

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
