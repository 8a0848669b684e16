package dev.quiver.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** Whether a person is watching: decides if the live progress line is drawn. */
final class Terminal {
  private Terminal() {}

  /**
   * True when standard input and output are a terminal (Java 17's {@link System#console()}) and
   * standard error is not redirected either (Linux: {@code /proc/self/fd/2} is a terminal device;
   * elsewhere it is assumed to be when the console exists).
   */
  static boolean interactive() {
    return System.console() != null && stderrIsTerminal();
  }

  private static boolean stderrIsTerminal() {
    Path fd = Path.of("/proc/self/fd/2");
    if (!Files.exists(fd, LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    try {
      String target = Files.readSymbolicLink(fd).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return true;
    }
  }
}
