package dev.quiver.cli;

/**
 * The entry point of {@code quiver.jar}: the command line of {@link QuiverCommand} ({@code quiver
 * sql|explain|tpch|gen|demo}), exiting with its status.
 */
public final class Quiver {
  private Quiver() {}

  public static void main(String[] args) {
    System.exit(QuiverCommand.run(args));
  }
}
