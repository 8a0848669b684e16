package dev.quiver.state.spill;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who owns a spill directory: {@code quiver-spill-….lock} beside it, locked with an operating
 * system file lock for as long as the directory lives. The operating system releases the lock when
 * its process dies, also by SIGKILL or a power cut, so a directory whose lock can be taken belongs
 * to no living process: {@link #sweep} deletes such orphans (a killed TaskManager's spill files,
 * which nothing else would ever delete).
 *
 * <pre>
 *   io.tmp.dirs/flink-io-A/quiver-spill-task-1f2e.lock   locked by TaskManager A (alive): kept
 *                          quiver-spill-task-1f2e/…
 *   io.tmp.dirs/flink-io-B/quiver-spill-task-9c0d.lock   lock free (B was killed): both deleted
 *                          quiver-spill-task-9c0d/…
 * </pre>
 *
 * <p>The owner takes the lock before it creates the directory and deletes the directory before it
 * releases the lock, so a sweeper finds every lock file held while its owner lives. A directory
 * without a lock file (written by another program, or by a Quiver before locks) is never touched.
 */
final class SpillDirectoryLock implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SpillDirectoryLock.class);
  static final String PREFIX = "quiver-spill-";
  static final String SUFFIX = ".lock";

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private SpillDirectoryLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code directory} (not created yet) for this process: call before creating it. The lock
   * file is created and locked under a name {@link #sweep} ignores and then renamed (the lock goes
   * with the file), so no sweeper ever sees it unlocked while its owner lives.
   */
  static SpillDirectoryLock acquire(Path directory) throws IOException {
    Path file = lockFile(directory);
    Path fresh = file.resolveSibling(file.getFileName() + ".new");
    FileChannel channel =
        FileChannel.open(fresh, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      FileLock lock = channel.lock();
      Files.move(fresh, file, StandardCopyOption.ATOMIC_MOVE);
      return new SpillDirectoryLock(file, channel, lock);
    } catch (IOException | RuntimeException e) {
      channel.close();
      Files.deleteIfExists(fresh);
      throw e;
    }
  }

  /** Releases the lock and deletes its file: call after the directory is deleted. */
  @Override
  public void close() throws IOException {
    try (channel) {
      Files.deleteIfExists(file); // while still locked: no sweeper can take it in between
      lock.release();
    }
  }

  static Path lockFile(Path directory) {
    return directory.resolveSibling(directory.getFileName() + SUFFIX);
  }

  /**
   * Deletes the orphaned spill directories directly in each of {@code parents} (and their lock
   * files), leaving alone every directory whose owner lives; never throws: a directory it cannot
   * read or delete is logged and left.
   *
   * @return the number of orphaned directories deleted
   */
  static int sweep(List<Path> parents) {
    int swept = 0;
    for (Path parent : parents) {
      try (DirectoryStream<Path> locks = Files.newDirectoryStream(parent, PREFIX + "*" + SUFFIX)) {
        for (Path lockFile : locks) {
          swept += sweepOne(lockFile) ? 1 : 0;
        }
      } catch (NoSuchFileException e) {
        // gone meanwhile
      } catch (IOException | RuntimeException e) {
        LOG.debug("cannot look for orphaned spill directories in {}", parent, e);
      }
    }
    return swept;
  }

  // Deletes lockFile's directory and then lockFile if no process holds the lock.
  private static boolean sweepOne(Path lockFile) {
    String name = lockFile.getFileName().toString();
    Path directory = lockFile.resolveSibling(name.substring(0, name.length() - SUFFIX.length()));
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        return false; // this process owns it
      }
      if (lock == null) {
        return false; // another living process owns it
      }
      try (lock) {
        boolean existed = Files.exists(directory);
        deleteTree(directory);
        Files.deleteIfExists(lockFile);
        if (existed) {
          LOG.info("deleted orphaned spill directory {} (its process has ended)", directory);
        }
        return existed;
      }
    } catch (NoSuchFileException e) {
      return false; // its owner has just closed it
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot delete orphaned spill directory {}: {}", directory, e.toString());
      return false;
    }
  }

  static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
