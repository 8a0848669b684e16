package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.dataset.file.DatasetFileWriter;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes Arrow batches to one Parquet, CSV or Arrow IPC file, atomically: the data goes to a hidden
 * temporary directory beside the target ({@code .<name>.tmp-<uuid>/}, skipped by {@link
 * TableLocations}) and is renamed to the target only when complete; on any failure the temporary
 * directory is deleted and no target appears.
 *
 * <p>Arrow's dataset writer does the encoding (default options: Parquet uncompressed with
 * dictionary encoding and statistics, row groups of at most 1 Mi rows; CSV with a quoted header,
 * comma delimited, strings quoted, NULL as an empty field; Arrow IPC file format uncompressed). A
 * result with no rows still produces a file holding the schema.
 */
public final class FileWriters {
  private static final long RELEASE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private FileWriters() {}

  /**
   * Writes every batch of {@code source} to {@code target}, then closes {@code source}.
   *
   * <p>Each batch's buffers are moved out of the source's root (its vectors are left empty), so the
   * source fills fresh vectors for every batch, as Arrow's readers do; its allocator must have the
   * same root as {@code allocator}. Returns only when Arrow has released every batch.
   *
   * @return the number of rows written
   * @throws QuiverException {@link ErrorCode#FILE_WRITE_FAILED} if the target exists or writing
   *     fails; an exception thrown by the source itself is rethrown unchanged
   */
  public static long write(
      ArrowReader source, FileFormat format, Path target, BufferAllocator allocator) {
    requireNonNull(source, "source is null");
    requireNonNull(format, "format is null");
    requireNonNull(allocator, "allocator is null");
    Path file = requireNonNull(target, "target is null").toAbsolutePath().normalize();
    Path temp = file.resolveSibling("." + file.getFileName() + ".tmp-" + UUID.randomUUID());
    // Arrow may release the last exported batches on its own threads after write() returns; the
    // batches live in this child so that write() can wait until they are all back.
    BufferAllocator exported =
        allocator.newChildAllocator("quiver-file-writer:" + file.getFileName(), 0, Long.MAX_VALUE);
    CountingReader counting = new CountingReader(exported, source);
    try {
      Files.createDirectories(file.getParent());
      if (Files.exists(file)) {
        throw new QuiverException(
            ErrorCode.FILE_WRITE_FAILED, "Cannot write " + file + ": the file already exists");
      }
      Schema schema = counting.getVectorSchemaRoot().getSchema();
      String name = "part-{i}" + format.defaultExtension();
      DatasetFileWriter.write(
          exported,
          counting,
          format.datasetFormat(),
          temp.toUri().toString(),
          new String[0],
          1,
          name);
      Path written = temp.resolve("part-0" + format.defaultExtension());
      if (counting.rows == 0) {
        Files.createDirectories(temp);
        EmptyFiles.write(format, schema, written, allocator);
      }
      Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
      return counting.rows;
    } catch (IOException | RuntimeException e) {
      if (counting.failure != null) {
        throw counting.failure; // the source's own error, not the writer's report of it
      }
      if (e instanceof QuiverException quiver) {
        throw quiver;
      }
      throw new QuiverException(
          ErrorCode.FILE_WRITE_FAILED,
          "Cannot write " + format + " file " + file + ": " + e.getMessage(),
          e);
    } finally {
      deleteRecursively(temp);
      closeQuietly(counting);
      awaitReleaseAndClose(exported);
    }
  }

  private static void awaitReleaseAndClose(BufferAllocator exported) {
    long deadline = System.nanoTime() + RELEASE_TIMEOUT_NANOS;
    while (exported.getAllocatedMemory() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    exported.close(); // reports a leak if Arrow still holds batches
  }

  public static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      List<Path> paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
      for (Path p : paths) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete temporary files " + path, e);
    }
  }

  private static void closeQuietly(ArrowReader reader) {
    try {
      reader.close();
    } catch (IOException | RuntimeException e) {
      // Already closed by Arrow when it released the stream; nothing left to report.
    }
  }

  /**
   * Moves the source's batches into its own root (allocated from the export allocator), minus empty
   * ones (Arrow's writer leaks a batch with no rows), counting rows and keeping the source's own
   * exception.
   */
  private static final class CountingReader extends ArrowReader {
    private final ArrowReader source;
    private long rows;
    private RuntimeException failure;

    CountingReader(BufferAllocator allocator, ArrowReader source) {
      super(allocator);
      this.source = source;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      try {
        while (source.loadNextBatch()) {
          VectorSchemaRoot batch = source.getVectorSchemaRoot();
          if (batch.getRowCount() > 0) {
            VectorSchemaRoot root = getVectorSchemaRoot();
            for (int i = 0; i < root.getFieldVectors().size(); i++) {
              batch.getVector(i).makeTransferPair(root.getVector(i)).transfer();
            }
            root.setRowCount(batch.getRowCount());
            rows += batch.getRowCount();
            return true;
          }
        }
        return false;
      } catch (RuntimeException e) {
        failure = e;
        throw e;
      }
    }

    @Override
    public Dictionary lookup(long id) {
      return source.lookup(id);
    }

    @Override
    public Set<Long> getDictionaryIds() {
      return source.getDictionaryIds();
    }

    @Override
    public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
      return source.getDictionaryVectors();
    }

    @Override
    public long bytesRead() {
      return source.bytesRead();
    }

    @Override
    protected void closeReadSource() throws IOException {
      source.close();
    }

    @Override
    protected Schema readSchema() throws IOException {
      return source.getVectorSchemaRoot().getSchema();
    }
  }
}
