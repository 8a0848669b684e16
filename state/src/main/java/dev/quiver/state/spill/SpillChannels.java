package dev.quiver.state.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How spill files are opened for writing. The one implementation used in production opens a new
 * file; a test replaces it, for every spill space of the JVM (a MiniCluster's tasks run in the
 * test's JVM), with channels that fail the way a full disk does, at a byte it chooses. This is a
 * test seam: nothing but tests calls {@link #replaceWith}.
 */
@FunctionalInterface
public interface SpillChannels {
  /** Creates {@code file} (it must not exist) and opens it for writing. */
  FileChannel create(Path file) throws IOException;

  /** New files on the file system. */
  SpillChannels FILES =
      file -> FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

  /**
   * Makes every spill space of this JVM create its files with {@code channels} until the returned
   * handle is closed (tests only; one replacement at a time).
   */
  static AutoCloseable replaceWith(SpillChannels channels) {
    requireNonNull(channels, "channels is null");
    synchronized (Current.class) {
      if (Current.channels != FILES) {
        throw new IllegalStateException("spill channels are already replaced");
      }
      Current.channels = channels;
    }
    return () -> {
      synchronized (Current.class) {
        Current.channels = FILES;
      }
    };
  }

  /** Creates {@code file} with the current channels. */
  static FileChannel createFile(Path file) throws IOException {
    return Current.channels.create(file);
  }

  /** The channels in use. */
  final class Current {
    private static volatile SpillChannels channels = FILES;

    private Current() {}
  }
}
