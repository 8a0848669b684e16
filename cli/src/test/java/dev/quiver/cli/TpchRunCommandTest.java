package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code quiver gen tpch} then {@code quiver tpch} on its data, end to end at SF 0.01. */
@ExtendWith(ArrowLeakCheck.class)
class TpchRunCommandTest {
  @Test
  void generatesThenRunsQueriesAndWritesTheirResults(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("tpch");
    Cli.Run gen =
        Cli.run(
            "gen", "tpch", "--sf", "0.01", "--out", data.toString(), "--rows-per-file", "20000");
    assertThat(gen.err()).isEmpty();
    assertThat(gen.status()).isZero();
    assertThat(gen.out())
        .contains("lineitem        60,175 rows   3 files\n")
        .contains("TPC-H SF 0.01 parquet written to " + data);
    assertThat(data.resolve("_SUCCESS")).exists();

    Path out = dir.resolve("results");
    Cli.Run run =
        Cli.run(
            "tpch",
            "--sf",
            "0.01",
            "--data",
            data.toString(),
            "--queries",
            "6,1",
            "--parallelism",
            "1",
            "--out",
            out.toString());
    assertThat(run.err()).isEmpty(); // the data was there: nothing generated
    assertThat(run.status()).isZero();
    assertThat(run.out())
        .startsWith("TPC-H SF 0.01, parallelism 1, local MiniCluster, data " + data + "\n\n")
        .containsPattern(
            "query \\|     rows \\|  seconds\n"
                + "------\\+----------\\+---------\n"
                + "q01   \\|        4 \\| +\\d+\\.\\d{3}\n"
                + "q06   \\|        1 \\| +\\d+\\.\\d{3}\n"
                + "------\\+----------\\+---------\n"
                + "total \\|        5 \\| +\\d+\\.\\d{3}\n$");
    assertThat(Files.readString(out.resolve("q01.csv")))
        .isEqualTo(
            "l_returnflag,l_linestatus,sum_qty,sum_base_price,sum_disc_price,sum_charge,avg_qty,"
                + "avg_price,avg_disc,count_order\n"
                + "A,F,380456.00,532348211.65,505822441.4861,526165934.000839,25.575155,"
                + "35785.709307,0.050081,14876\n"
                + "N,F,8971.00,12384801.37,11798257.2080,12282485.056933,25.778736,35588.509684,"
                + "0.047759,348\n"
                + "N,O,742802.00,1041502841.45,989737518.6346,1029418531.523350,25.454988,"
                + "35691.129209,0.049931,29181\n"
                + "R,F,381449.00,534594445.35,507996454.4067,528524219.358903,25.597168,"
                + "35874.006533,0.049828,14902\n");
    assertThat(Files.readString(out.resolve("q06.csv"))).isEqualTo("revenue\n1193053.2253\n");
  }
}
