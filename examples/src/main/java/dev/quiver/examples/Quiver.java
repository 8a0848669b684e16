package dev.quiver.examples;

import dev.quiver.examples.demo.ShuffleAggregateDemo;
import java.io.PrintStream;

/**
 * The {@code quiver} command line. Until the SQL path exists it runs the demonstration job: {@code
 * quiver [demo] [--parallelism N] [--batches N]}.
 */
public final class Quiver {
  private Quiver() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    int parallelism = 2;
    long batches = 256;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "demo":
            break;
          case "--parallelism":
            parallelism = positive(args, ++i);
            break;
          case "--batches":
            batches = positive(args, ++i);
            break;
          case "-h":
          case "--help":
            out.println("usage: quiver [demo] [--parallelism N] [--batches N]");
            return 0;
          default:
            throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
        }
      }
      new ShuffleAggregateDemo(parallelism, batches).run(out);
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("quiver: " + e.getMessage() + " (try --help)");
      return 2;
    } catch (Exception e) {
      err.println("quiver: " + e);
      return 1;
    }
  }

  private static int positive(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    try {
      int value = Integer.parseInt(args[i]);
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(args[i - 1] + " must be a positive integer: " + args[i]);
  }
}
