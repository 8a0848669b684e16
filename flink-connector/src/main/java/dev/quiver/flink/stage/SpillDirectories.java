package dev.quiver.flink.stage;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.execution.Environment;

/**
 * Where a stage task spills: the task manager's spilling directories, which Flink creates under
 * {@code io.tmp.dirs} (one per configured temp dir, spread over disks) and removes at shutdown.
 */
final class SpillDirectories {
  private SpillDirectories() {}

  static List<Path> of(Environment environment) {
    List<Path> paths = new ArrayList<>();
    for (File dir : environment.getIOManager().getSpillingDirectories()) {
      paths.add(dir.toPath());
    }
    return List.copyOf(paths);
  }
}
