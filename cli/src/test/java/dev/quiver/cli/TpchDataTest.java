package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpchDataTest {
  @Test
  void cacheDirectoryHonoursXdgCacheHome() {
    assertThat(TpchData.defaultDir(0.1, Map.of(), "/home/ann"))
        .isEqualTo(Path.of("/home/ann/.cache/quiver/tpch-sf0.1"));
    assertThat(TpchData.defaultDir(1, Map.of("XDG_CACHE_HOME", "/var/cache/ann"), "/home/ann"))
        .isEqualTo(Path.of("/var/cache/ann/quiver/tpch-sf1"));
    // The XDG spec: a relative path is invalid and ignored.
    assertThat(TpchData.defaultDir(10, Map.of("XDG_CACHE_HOME", "rel"), "/home/ann"))
        .isEqualTo(Path.of("/home/ann/.cache/quiver/tpch-sf10"));
    assertThat(TpchData.scaleText(0.010)).isEqualTo("0.01");
    assertThat(TpchData.scaleText(100.0)).isEqualTo("100");
  }

  @Test
  void anotherScaleFactorInTheDirectoryIsAnError(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("_SUCCESS"), "scale=1.0\nformat=PARQUET\n");
    assertThat(TpchData.markedScale(dir)).contains(1.0);
    assertThat(TpchData.ensure(dir, 1, 1)).isFalse();
    assertThatThrownBy(() -> TpchData.ensure(dir, 0.1, 1))
        .isInstanceOf(CliException.class)
        .hasMessage(dir + " holds TPC-H SF 1, not SF 0.1: pass --sf 1 or another --data directory");
  }

  @Test
  void aboutEightFilesForTheLargestTable() {
    assertThat(TpchData.rowsPerFile(0.01)).isEqualTo(10_000);
    assertThat(TpchData.rowsPerFile(0.1)).isEqualTo(75_000);
    assertThat(TpchData.rowsPerFile(100)).isEqualTo(1_000_000);
  }
}
