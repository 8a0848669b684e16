package dev.quiver.flink.stage;

import dev.quiver.state.spill.FileSpillSpace;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.execution.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a stage task spills: the task manager's spilling directories, which Flink creates under
 * {@code io.tmp.dirs} (one per configured temp dir, spread over disks) and removes at shutdown.
 *
 * <p>A TaskManager that was killed removed nothing: its {@code flink-io-…} directories stay, with
 * Quiver's spill files in them. So a task, when it starts, deletes the spill directories of dead
 * processes in every {@code flink-io-…} directory beside its own ({@link
 * FileSpillSpace#sweepOrphans}: a directory whose owner's file lock is free), at most once every
 * {@link #SWEEP_INTERVAL_MILLIS} per temp dir and process: a TaskManager started in place of a
 * killed one on the same host cleans up after it.
 */
final class SpillDirectories {
  private static final Logger LOG = LoggerFactory.getLogger(SpillDirectories.class);
  static final long SWEEP_INTERVAL_MILLIS = TimeUnit.MINUTES.toMillis(10);
  private static final String FLINK_IO_PREFIX = "flink-io-";
  private static final Map<Path, Long> LAST_SWEEP = new ConcurrentHashMap<>();

  private SpillDirectories() {}

  static List<Path> of(Environment environment) {
    List<Path> paths = new ArrayList<>();
    for (File dir : environment.getIOManager().getSpillingDirectories()) {
      paths.add(dir.toPath());
    }
    sweepOrphans(paths, System.nanoTime());
    return List.copyOf(paths);
  }

  /**
   * Deletes dead processes' spill directories beside {@code spilling} (Flink's {@code flink-io-…}
   * directories under the same temp dirs), unless this process did so for a temp dir less than
   * {@link #SWEEP_INTERVAL_MILLIS} before {@code nowNanos}.
   *
   * @return the number of spill directories deleted
   */
  static int sweepOrphans(List<Path> spilling, long nowNanos) {
    Set<Path> candidates = new LinkedHashSet<>();
    for (Path directory : spilling) {
      Path tmp = directory.toAbsolutePath().getParent();
      if (tmp == null || !due(tmp, nowNanos)) {
        continue;
      }
      try (DirectoryStream<Path> ios = Files.newDirectoryStream(tmp, FLINK_IO_PREFIX + "*")) {
        for (Path io : ios) {
          if (Files.isDirectory(io)) {
            candidates.add(io);
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.debug("cannot look for orphaned spill directories under {}", tmp, e);
      }
    }
    return candidates.isEmpty() ? 0 : FileSpillSpace.sweepOrphans(List.copyOf(candidates));
  }

  private static boolean due(Path tmp, long nowNanos) {
    long interval = TimeUnit.MILLISECONDS.toNanos(SWEEP_INTERVAL_MILLIS);
    boolean[] due = {false};
    LAST_SWEEP.compute(
        tmp,
        (key, last) -> {
          due[0] = last == null || nowNanos - last >= interval;
          return due[0] ? nowNanos : last;
        });
    return due[0];
  }
}
