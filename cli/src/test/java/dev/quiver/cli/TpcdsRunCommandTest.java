package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.tpcds.TpcdsSchemas;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import io.trino.tpcds.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver tpcds --data DIR} on a folder of the 24 tables (empty here: the answers are checked
 * against DuckDB by TpcdsQueriesTest), a query that runs and one that fails.
 */
@ExtendWith(ArrowLeakCheck.class)
class TpcdsRunCommandTest {
  @Test
  void runsTheQueriesOnAGivenFolderAndGoesOnAfterAFailure(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("tpcds");
    try (BufferAllocator allocator = Allocators.newChild("empty tpcds")) {
      for (Table table : TpcdsSchemas.tables()) {
        Path file = data.resolve(table.getName()).resolve("part-0.parquet");
        Schema schema = TpcdsSchemas.schema(table);
        if (table.getName().equals("income_band")) {
          schema = without(schema, "ib_lower_bound"); // a column q84 reads
        }
        try (BatchFileWriter writer =
            BatchFileWriter.open(file, FileFormat.PARQUET, schema, allocator)) {
          writer.commit(); // no rows: a file with the schema
        }
      }
    }
    Path out = dir.resolve("results");

    Cli.Run run =
        Cli.run(
            "tpcds",
            "--data",
            data.toString(),
            "--queries",
            "84,3",
            "--parallelism",
            "1",
            "--out",
            out.toString());

    assertThat(run.status()).as(run.out() + run.err()).isEqualTo(1);
    assertThat(run.out())
        .startsWith("TPC-DS data, parallelism 1, local MiniCluster, data " + data + "\n\n")
        .containsPattern(
            "query \\|     rows \\|  seconds\n"
                + "------\\+----------\\+---------\n"
                + "q03   \\|        0 \\| +\\d+\\.\\d{3}\n"
                + "q84   \\|   FAILED \\| +\\d+\\.\\d{3}\n"
                + "------\\+----------\\+---------\n"
                + "total \\|        0 \\| +\\d+\\.\\d{3}\n$");
    assertThat(run.err()) // q84 reads ib_lower_bound, which income_band lacks
        .startsWith("quiver: q84: [INVALID_QUERY] ")
        .contains("ib_lower_bound")
        .endsWith("\nquiver: 1 of 2 queries failed: q84\n");
    assertThat(run.err().lines()).hasSize(2);
    assertThat(Files.readString(out.resolve("q03.csv")))
        .isEqualTo("d_year,brand_id,brand,sum_agg\n");
    assertThat(out.resolve("q84.csv")).doesNotExist();
    assertThat(data.resolve("_SUCCESS")).doesNotExist(); // used as it is, nothing generated
  }

  /** {@code schema} without column {@code name}. */
  private static Schema without(Schema schema, String name) {
    List<Field> fields = new ArrayList<>(schema.getFields());
    fields.removeIf(field -> field.getName().equals(name));
    return new Schema(fields);
  }
}
