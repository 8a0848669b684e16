package dev.quiver.cli;

import java.util.ArrayList;
import java.util.List;

/** The command line of {@code quiver ARGS...} in a JVM of its own, on the test class path. */
public final class QuiverJvm {
  private QuiverJvm() {}

  /** {@code java ... dev.quiver.cli.Quiver args}, with 1 GiB of heap. */
  public static List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Xmx1g");
    command.add("-cp");
    command.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.add("dev.quiver.cli.Quiver");
    command.addAll(List.of(args));
    return command;
  }
}
