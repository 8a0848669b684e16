package dev.quiver.examples.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.formats.FileFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The arguments of the job jar (its runs on a cluster are in {@code QuiverOnClusterIT}). */
class JobOptionsTest {
  @Test
  void everyOption() {
    JobOptions options =
        JobOptions.parse(
                "--sql", "SELECT 1",
                "--catalog", "/data/tpch",
                "--table", "t=/data/t.csv",
                "-t", "u=/data/u/*.parquet",
                "--output", "/out/r",
                "--format", "PARQUET",
                "-p", "4",
                "--broadcast-threshold", "0",
                "--compression", "lz4")
            .orElseThrow();
    assertThat(options.sql()).isEqualTo("SELECT 1");
    assertThat(options.catalogs).containsExactly(Path.of("/data/tpch"));
    assertThat(options.tables)
        .containsExactly(Map.entry("t", "/data/t.csv"), Map.entry("u", "/data/u/*.parquet"));
    assertThat(options.output).isEqualTo(Path.of("/out/r"));
    assertThat(options.fileFormat()).isEqualTo(FileFormat.PARQUET);
    assertThat(options.parallelism()).hasValue(4);
    assertThat(options.broadcastThreshold).isZero();
    assertThat(options.batchCompression()).isEqualTo(BatchCompression.LZ4);
  }

  @Test
  void defaultsAndAQueryFile(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("q.sql"), "SELECT 2");
    JobOptions options = JobOptions.parse("-f", file.toString(), "-o", "out").orElseThrow();
    assertThat(options.sql()).isEqualTo("SELECT 2");
    assertThat(options.fileFormat()).isEqualTo(FileFormat.CSV);
    assertThat(options.parallelism()).isEmpty(); // the environment's
    assertThat(options.batchCompression()).isEqualTo(BatchCompression.NONE);
  }

  @Test
  void usageErrorsSayWhatIsWrongAndShowTheUsage() {
    String[][] bad = {
      {"--sql", "SELECT 1"},
      {"--output", "out"},
      {"--sql", "SELECT 1", "-f", "q.sql", "--output", "out"},
      {"--sql", "SELECT 1", "--output", "out", "--format", "json"},
      {"--sql", "SELECT 1", "--output", "out", "--compression", "gzip"},
      {"--sql", "SELECT 1", "--output", "out", "--parallelism", "0"},
      {"--sql", "SELECT 1", "--output", "out", "--table", "t"},
      {"--sql", "SELECT 1", "--output", "out", "--bogus"}
    };
    String[] reasons = {
      "--output",
      "--sql",
      "mutually exclusive",
      "json",
      "gzip",
      "at least 1",
      "NAME=PATH",
      "--bogus"
    };
    for (int i = 0; i < bad.length; i++) {
      String[] args = bad[i];
      assertThatThrownBy(() -> JobOptions.parse(args))
          .as(String.join(" ", args))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("quiver-job: ")
          .hasMessageContaining(reasons[i])
          .hasMessageContaining("Usage: quiver-job");
    }
  }

  @Test
  void helpIsNoJob() {
    assertThat(JobOptions.parse("--help")).isEmpty();
  }

  @Test
  void theJobRunsInBatchModeWithThePlansTaskCounts() {
    Configuration flink = QuiverJob.flinkConfiguration(OptionalInt.of(3));
    assertThat(flink.get(ExecutionOptions.RUNTIME_MODE)).isEqualTo(RuntimeExecutionMode.BATCH);
    assertThat(flink.get(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED)).isFalse();
    assertThat(flink.get(PipelineOptions.GENERIC_TYPES)).isFalse();
    assertThat(flink.get(CoreOptions.DEFAULT_PARALLELISM)).isEqualTo(3);
    assertThat(
            QuiverJob.flinkConfiguration(OptionalInt.empty())
                .contains(CoreOptions.DEFAULT_PARALLELISM))
        .isFalse();
  }
}
