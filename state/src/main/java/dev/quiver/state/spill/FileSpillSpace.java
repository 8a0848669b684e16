package dev.quiver.state.spill;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.operators.spill.SpillStore;
import dev.quiver.operators.spill.SpillWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's spill files on local disk, as Arrow IPC streams with compressed bodies.
 *
 * <pre>
 *   directories (Flink's io.tmp.dirs)     one directory per space in each, made on first use
 *   /disk1/flink-io-…/ ─► quiver-spill-&lt;owner&gt;-&lt;random&gt;/000001-sort-run.arrows, 000003-…
 *   /disk2/flink-io-…/ ─► quiver-spill-&lt;owner&gt;-&lt;random&gt;/000002-sort-run.arrows, …
 *                         (files go round robin over the directories)
 *                         quiver-spill-&lt;owner&gt;-&lt;random&gt;.lock beside each: held while the space lives
 * </pre>
 *
 * <p>Why the task owns it: a spill file must never outlive its task. Operators close their files as
 * soon as they have read them back, but a failed or cancelled task may leave writers and readers
 * open; {@link #close()} closes every one of them, deletes every file this space created and its
 * directories. A process that dies leaves its directories to {@link #sweepOrphans}. Close it after
 * the task's operators are closed (they may still read files until then) and before the task's
 * allocator is closed (a reader left open still holds a batch).
 *
 * <p>The counters are totals over the space's life and may be read from any thread (for metrics).
 * Creating files and closing them are thread-safe; each writer and reader is used by one thread.
 */
public final class FileSpillSpace implements SpillSpace, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileSpillSpace.class);
  private static final int NAME_MAX = 48;

  private final List<Path> roots;
  private final String owner;
  private final SpillCompression compression;
  private final String directoryName;
  private final Path[] directories; // per root, made on first use
  private final SpillDirectoryLock[] locks; // per directory made: this process owns it
  private final Map<Path, AutoCloseable> live = new LinkedHashMap<>(); // file -> writer or file
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong files = new AtomicLong();
  private long sequence;
  private boolean closed;

  /**
   * A space spilling under {@code roots} (for example Flink's {@code io.tmp.dirs}, which must
   * exist) for the task {@code owner}, with {@code compression}.
   */
  public FileSpillSpace(List<Path> roots, String owner, SpillCompression compression) {
    requireNonNull(roots, "roots is null");
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("a spill space needs at least one directory");
    }
    this.roots = List.copyOf(roots);
    this.owner = requireNonNull(owner, "owner is null");
    this.compression = requireNonNull(compression, "compression is null");
    this.directoryName =
        "quiver-spill-"
            + safeName(owner)
            + "-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    this.directories = new Path[this.roots.size()];
    this.locks = new SpillDirectoryLock[this.roots.size()];
  }

  /**
   * Deletes the spill directories directly in {@code parents} whose process has ended (a killed
   * TaskManager's: see {@link SpillDirectoryLock}); never those of a living process. Never throws.
   *
   * @return the number of directories deleted
   */
  public static int sweepOrphans(List<Path> parents) {
    return SpillDirectoryLock.sweep(List.copyOf(parents));
  }

  /** A space with the {@linkplain SpillCompression#DEFAULT default compression}. */
  public FileSpillSpace(List<Path> roots, String owner) {
    this(roots, owner, SpillCompression.DEFAULT);
  }

  @Override
  public synchronized boolean canSpill() {
    return !closed;
  }

  @Override
  public SpillWriter create(Schema schema, String purpose) {
    requireNonNull(schema, "schema is null");
    requireNonNull(purpose, "purpose is null");
    Path file;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("spill space of " + owner + " is closed");
      }
      long number = ++sequence;
      Path directory = directory((int) ((number - 1) % roots.size()));
      file = directory.resolve(String.format("%06d-%s.arrows", number, safeName(purpose)));
    }
    FileSpillWriter writer = new FileSpillWriter(this, file, schema, compression.newCodec());
    files.incrementAndGet();
    LOG.debug("{} spills {} to {}", owner, purpose, file);
    return writer;
  }

  /**
   * A RocksDB store in a directory of its own beside this space's files ({@code
   * 000004-updating-aggregate.rocksdb}), closed and deleted with the space at the latest.
   */
  @Override
  public SpillStore openStore(String purpose) {
    requireNonNull(purpose, "purpose is null");
    Path path;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("spill space of " + owner + " is closed");
      }
      long number = ++sequence;
      Path directory = directory((int) ((number - 1) % roots.size()));
      path = directory.resolve(String.format("%06d-%s.rocksdb", number, safeName(purpose)));
    }
    RocksSpillStore store = new RocksSpillStore(this, path);
    register(path, store);
    files.incrementAndGet();
    LOG.debug("{} keeps {} in {}", owner, purpose, path);
    return store;
  }

  /** A store's entries written: counted as spilled rows. */
  void stored(long entries) {
    rows.addAndGet(entries);
  }

  /** {@code store} is closed: its directory is deleted and it is no longer tracked. */
  void storeClosed(RocksSpillStore store, Path directory) {
    try {
      SpillDirectoryLock.deleteTree(directory);
    } catch (IOException e) {
      LOG.warn("{} could not delete spill store {}: {}", owner, directory, e.toString());
    } finally {
      unregister(directory);
    }
  }

  @Override
  public long spilledBytes() {
    return bytes.get();
  }

  @Override
  public long spilledRows() {
    return rows.get();
  }

  @Override
  public long spilledFiles() {
    return files.get();
  }

  /** The compression new files are written with. */
  public SpillCompression compression() {
    return compression;
  }

  /** Files created and not deleted yet. */
  public synchronized int liveFiles() {
    return live.size();
  }

  /** The directories this space made (one per root it used), for tests and logs. */
  public synchronized List<Path> directories() {
    List<Path> made = new ArrayList<>();
    for (Path directory : directories) {
      if (directory != null) {
        made.add(directory);
      }
    }
    return made;
  }

  /**
   * Closes every writer, file and reader still open and deletes every file and directory this space
   * made. Idempotent; afterwards {@link #create} fails.
   */
  @Override
  public void close() {
    List<AutoCloseable> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = new ArrayList<>(live.values());
    }
    RuntimeException failure = null;
    for (AutoCloseable handle : open) {
      try {
        handle.close(); // deletes its file and unregisters it
      } catch (Exception e) {
        failure = chain(failure, e);
      }
    }
    for (int i = 0; i < directories.length; i++) {
      if (directories[i] == null) {
        continue;
      }
      try {
        SpillDirectoryLock.deleteTree(directories[i]);
        locks[i].close(); // only once the directory is gone: a sweeper must not take it before
      } catch (IOException | RuntimeException e) {
        failure = chain(failure, e);
      }
    }
    if (files.get() > 0) {
      LOG.info(
          "{} spilled {} rows in {} files, {} bytes ({})",
          owner,
          rows.get(),
          files.get(),
          bytes.get(),
          compression);
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "FileSpillSpace[" + owner + ", " + roots + ", " + compression + "]";
  }

  /** Tracks {@code file}'s current handle; fails once the space is closed. */
  synchronized void register(Path file, AutoCloseable handle) {
    if (closed) {
      throw new IllegalStateException("spill space of " + owner + " is closed");
    }
    live.put(file, handle);
  }

  synchronized void unregister(Path file) {
    live.remove(file);
  }

  void written(long batchRows, long batchBytes) {
    rows.addAndGet(batchRows);
    bytes.addAndGet(batchBytes);
  }

  String owner() {
    return owner;
  }

  /**
   * The error of a failed spill write: one line saying that spilling failed, the directory and file
   * (the directory is under one of {@code io.tmp.dirs}), the reason and what to do.
   */
  QuiverException writeFailed(Path file, IOException cause) {
    Path directory = file.getParent();
    return new QuiverException(
        ErrorCode.FILE_WRITE_FAILED,
        "Spilling failed: cannot write spill file "
            + file.getFileName()
            + " in directory "
            + directory
            + ": "
            + reason(cause)
            + "; give the spill directories ("
            + roots()
            + ", under io.tmp.dirs) more room or the task more memory",
        cause);
  }

  private QuiverException directoryFailed(Path directory, IOException cause) {
    return new QuiverException(
        ErrorCode.FILE_WRITE_FAILED,
        "Spilling failed: cannot create spill directory "
            + directory
            + ": "
            + reason(cause)
            + "; the spill directories ("
            + roots()
            + ", under io.tmp.dirs) must be writable directories",
        cause);
  }

  private String roots() {
    return roots.stream().map(Path::toString).collect(Collectors.joining(", "));
  }

  // "No space left on device", or the exception's class for messages that are only a path.
  private static String reason(IOException cause) {
    String message = cause.getMessage() == null ? "" : cause.getMessage();
    if (cause instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return cause.getClass().getSimpleName() + ": " + fs.getReason();
    }
    return message.isEmpty() || message.startsWith("/")
        ? cause.getClass().getSimpleName() + (message.isEmpty() ? "" : " " + message)
        : message;
  }

  private Path directory(int root) {
    if (directories[root] == null) {
      Path directory = roots.get(root).resolve(directoryName);
      SpillDirectoryLock lock;
      try {
        lock = SpillDirectoryLock.acquire(directory);
      } catch (IOException e) {
        throw directoryFailed(directory, e);
      }
      try {
        Files.createDirectories(directory);
      } catch (IOException e) {
        try {
          lock.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw directoryFailed(directory, e);
      }
      locks[root] = lock;
      directories[root] = directory;
    }
    return directories[root];
  }

  private static RuntimeException chain(RuntimeException failure, Exception e) {
    RuntimeException next =
        e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    if (failure == null) {
      return next;
    }
    failure.addSuppressed(next);
    return failure;
  }

  /** {@code name} with only file-name-safe characters, at most {@value #NAME_MAX} of them. */
  static String safeName(String name) {
    String safe = name.replaceAll("[^A-Za-z0-9._-]+", "_");
    return safe.length() <= NAME_MAX ? safe : safe.substring(0, NAME_MAX);
  }
}
