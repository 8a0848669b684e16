package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.formats.FileWriters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Committer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The global commit of a {@link FileSink}, run once at parallelism 1 after every writer task has
 * staged its part: it checks that a part of each task is there and publishes them all with one
 * atomic rename of the staging directory to the target directory.
 *
 * <pre>
 *  writer 0 ─► .out.staging-&lt;uuid&gt;/part-00000.parquet ─┐
 *  writer 1 ─► .out.staging-&lt;uuid&gt;/part-00001.parquet ─┼─► rename(.out.staging-&lt;uuid&gt;, out)
 *  writer 2 ─► .out.staging-&lt;uuid&gt;/part-00002.parquet ─┘
 * </pre>
 *
 * A commit that is repeated after it succeeded (a restarted committer) finds the target with the
 * parts and no staging directory, and reports the parts as already committed.
 */
final class FileSinkCommitter implements Committer<FilePart> {
  private static final Logger LOG = LoggerFactory.getLogger(FileSinkCommitter.class);

  private final Path staging;
  private final Path target;
  // Parts may arrive in several commits (one per checkpoint in STREAMING mode).
  private final Map<Integer, FilePart> parts = new TreeMap<>();

  FileSinkCommitter(Path staging, Path target) {
    this.staging = requireNonNull(staging, "staging is null");
    this.target = requireNonNull(target, "target is null");
  }

  @Override
  public void commit(Collection<CommitRequest<FilePart>> requests) throws IOException {
    int tasks = 0;
    for (CommitRequest<FilePart> request : requests) {
      FilePart part = request.getCommittable();
      parts.put(part.task(), part);
      tasks = part.tasks();
    }
    if (parts.size() < tasks) {
      return; // the other tasks' parts come with a later checkpoint
    }
    if (!Files.exists(staging) && allIn(target)) {
      LOG.info("{} was already committed", target);
      requests.forEach(CommitRequest::signalAlreadyCommitted);
      return;
    }
    for (FilePart part : parts.values()) {
      if (!Files.isRegularFile(Path.of(part.path()))) {
        throw failure("the staged part " + part.path() + " is missing", null);
      }
    }
    deleteLeftovers();
    publish();
    long rows = parts.values().stream().mapToLong(FilePart::rows).sum();
    LOG.info("committed {} rows in {} files to {}", rows, parts.size(), target);
  }

  /**
   * Deletes what the staging directory holds besides the parts: the unfinished file of a writer
   * attempt that died with its TaskManager (a writer deletes its own unfinished file when it is
   * closed, and a killed process closes nothing), which the rename would otherwise publish.
   */
  private void deleteLeftovers() throws IOException {
    Set<Path> staged = new HashSet<>();
    parts.values().forEach(part -> staged.add(Path.of(part.path()).getFileName()));
    List<Path> leftovers;
    try (Stream<Path> entries = Files.list(staging)) {
      leftovers = entries.filter(entry -> !staged.contains(entry.getFileName())).toList();
    }
    for (Path leftover : leftovers) {
      LOG.info("deleting {}, left by a writer attempt that did not end", leftover);
      FileWriters.deleteRecursively(leftover);
    }
  }

  private boolean allIn(Path directory) {
    return parts.values().stream()
        .allMatch(
            part -> Files.isRegularFile(directory.resolve(Path.of(part.path()).getFileName())));
  }

  private void publish() {
    try {
      if (Files.isDirectory(target) && isEmpty(target)) {
        Files.delete(target); // an empty target directory is replaced, as if it did not exist
      }
      if (Files.exists(target)) {
        throw failure(target + " already exists", null);
      }
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw failure(e.toString(), e);
    }
  }

  private static boolean isEmpty(Path directory) throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.findAny().isEmpty();
    }
  }

  private QuiverException failure(String reason, Throwable cause) {
    return new QuiverException(
        ErrorCode.FILE_WRITE_FAILED, "Cannot commit the output " + target + ": " + reason, cause);
  }

  @Override
  public void close() {}
}
