package dev.quiver.flink.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.state.spill.FileSpillSpace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's start sweeps the dead processes' spill directories in every {@code flink-io-…} beside
 * its own, once per interval; a dead owner is one whose lock file nobody holds (what a SIGKILLed
 * TaskManager leaves: {@code OrphanedSpillsTest} in the state module kills real processes).
 */
class SpillDirectoriesTest {
  @TempDir Path tmp;

  @Test
  void sweepsDeadProcessesDirectoriesBesideItsOwnOncePerInterval() throws IOException {
    Path own = Files.createDirectories(tmp.resolve("flink-io-own"));
    Path killed = Files.createDirectories(tmp.resolve("flink-io-killed"));
    Path other = Files.createDirectories(tmp.resolve("not-flink"));
    Path dead = orphan(killed, "quiver-spill-dead");
    Path elsewhere = orphan(other, "quiver-spill-elsewhere");
    long now = System.nanoTime();

    try (FileSpillSpace live = new FileSpillSpace(List.of(own), "live")) {
      live.create(dev.quiver.testing.RandomBatches.ALL_TYPES, "held").close();
      assertThat(live.directories()).hasSize(1);

      assertThat(SpillDirectories.sweepOrphans(List.of(own), now)).isEqualTo(1);
      assertThat(dead).doesNotExist();
      assertThat(elsewhere).as("not under a flink-io- directory").exists();
      assertThat(live.directories().get(0)).as("a living owner's").exists();

      Path later = orphan(killed, "quiver-spill-later");
      assertThat(SpillDirectories.sweepOrphans(List.of(own), now + 1)).isZero();
      assertThat(later).as("within the interval").exists();
      long next = now + TimeUnit.MILLISECONDS.toNanos(SpillDirectories.SWEEP_INTERVAL_MILLIS);
      assertThat(SpillDirectories.sweepOrphans(List.of(own), next)).isEqualTo(1);
      assertThat(later).doesNotExist();
    }
  }

  /** A spill directory whose owner died: its lock file is there, and nobody holds the lock. */
  private static Path orphan(Path parent, String name) throws IOException {
    Path directory = Files.createDirectories(parent.resolve(name));
    Files.writeString(directory.resolve("000001-sort-run.arrows"), "rows");
    Files.createFile(parent.resolve(name + ".lock"));
    return directory;
  }
}
