package dev.quiver.cli.tpcds;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileWriters;
import dev.quiver.operators.memory.Allocators;
import io.trino.tpcds.Results;
import io.trino.tpcds.Scaling;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates the 24 TPC-DS tables at a scale factor into {@code DIR/<table>/part-CCCCC-NNN.<ext>},
 * as Parquet (default) or CSV, with the types of {@link TpcdsSchemas}.
 *
 * <p>io.trino.tpcds (the dsdgen port) yields a table's rows with {@code
 * Results.constructResults(table, first, last, session)}, each row as the strings dsdgen would
 * print, for any range of its row numbers: it skips its random number streams to the first one, as
 * dsdgen's own parallel chunks do. (Its {@code Parallel.splitWork} chunks only tables of at least 1
 * M rows, which at SF 1 leaves every sales table in one chunk, so the ranges are chosen here.) A
 * table is cut into ranges of about {@code rowsPerFile} rows, and the ranges of all tables run on a
 * thread pool, largest first. A sales table's row number counts orders (tickets) of about ten lines
 * each, and each range also yields the order lines' returns (store_sales with store_returns,
 * catalog_sales with catalog_returns, web_sales with web_returns), which go to the returns table's
 * own files. Within a range a new file starts every {@code rowsPerFile} rows.
 *
 * <p>A complete data set ends with a {@code _SUCCESS} file naming the data set, its scale factor
 * and format, written last. If it is present and matches, generation is skipped; otherwise the
 * table directories are deleted and generated again.
 */
public final class TpcdsGenerator {
  private static final Logger LOG = LoggerFactory.getLogger(TpcdsGenerator.class);

  /** The marker of a complete data set. */
  public static final String SUCCESS = "_SUCCESS";

  /** The default rows per file: SF 1 store_sales becomes about 3 files, inventory 12. */
  public static final long DEFAULT_ROWS_PER_FILE = 1_000_000;

  /** What a run did: per-table rows and files, and whether it found the data already there. */
  public record Result(
      boolean skipped, Map<String, Long> rows, Map<String, Integer> files, long millis) {}

  // The row numbers of a sales table count orders: about ten lines (rows) each.
  private static final int LINES_PER_ORDER = 10;

  private record Chunk(Table table, int chunk, long first, long last, double weight) {}

  private record Written(Table table, long rows, int files) {}

  private final Path dir;
  private final double scale;
  private final FileFormat format;
  private final int threads;
  private final long rowsPerFile;
  private final List<Table> tables;

  /**
   * @param format {@link FileFormat#PARQUET} or {@link FileFormat#CSV}
   * @param threads generator threads
   */
  public TpcdsGenerator(Path dir, double scale, FileFormat format, int threads, long rowsPerFile) {
    this(dir, scale, format, threads, rowsPerFile, TpcdsSchemas.tables());
  }

  /** Only {@code tables} (a returns table comes with its sales table): for tests. */
  TpcdsGenerator(
      Path dir,
      double scale,
      FileFormat format,
      int threads,
      long rowsPerFile,
      List<Table> tables) {
    this.dir = requireNonNull(dir, "dir is null").toAbsolutePath();
    if (!(scale > 0) || scale > 100_000) {
      throw new IllegalArgumentException("scale factor must be in (0, 100000]: " + scale);
    }
    if (format == FileFormat.ARROW_IPC) {
      throw new IllegalArgumentException("TPC-DS data is generated as Parquet or CSV");
    }
    if (threads < 1 || rowsPerFile < 1) {
      throw new IllegalArgumentException("threads and rowsPerFile must be positive");
    }
    this.scale = scale;
    this.format = requireNonNull(format, "format is null");
    this.threads = threads;
    this.rowsPerFile = rowsPerFile;
    this.tables = List.copyOf(tables);
  }

  /** The directory of {@code table}'s files. */
  public Path tableDir(Table table) {
    return dir.resolve(table.getName());
  }

  /** The content of the {@code _SUCCESS} marker of a data set of {@code scale}, {@code format}. */
  static String marker(double scale, FileFormat format) {
    return "dataset=tpcds\nscale=" + scale + "\nformat=" + format + "\n";
  }

  /** Generates the data set unless {@code DIR/_SUCCESS} says it is already there. */
  public Result generate() {
    long start = System.nanoTime();
    String marker = marker(scale, format);
    Path success = dir.resolve(SUCCESS);
    if (Files.isRegularFile(success) && read(success).equals(marker)) {
      LOG.info("TPC-DS SF {} {} already in {}", scale, format, dir);
      return new Result(true, Map.of(), Map.of(), 0);
    }
    try {
      Files.deleteIfExists(success);
      for (Table table : TpcdsSchemas.tables()) {
        FileWriters.deleteRecursively(tableDir(table));
      }
      for (Table table : tablesAndChildren()) {
        Files.createDirectories(tableDir(table));
      }
      Map<String, Long> rows = new TreeMap<>();
      Map<String, Integer> files = new TreeMap<>();
      for (Written written : run(chunks())) {
        rows.merge(written.table().getName(), written.rows(), Long::sum);
        files.merge(written.table().getName(), written.files(), Integer::sum);
      }
      Path temp = dir.resolve("." + SUCCESS + ".tmp");
      Files.writeString(temp, marker);
      Files.move(
          temp, success, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      long millis = (System.nanoTime() - start) / 1_000_000;
      LOG.info("TPC-DS SF {} {} written to {} in {} ms", scale, format, dir, millis);
      return new Result(false, rows, files, millis);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot generate TPC-DS data in " + dir, e);
    }
  }

  private List<Chunk> chunks() {
    Scaling scaling = session().getScaling();
    List<Chunk> chunks = new ArrayList<>();
    for (Table table : tables) {
      if (table.isChild()) {
        continue; // generated with its parent
      }
      long rows = scaling.getRowCount(table);
      int lines = table.hasChild() ? LINES_PER_ORDER : 1;
      long perChunk = Math.max(1, rowsPerFile / lines);
      int count = (int) Math.max(1, (rows + perChunk - 1) / perChunk);
      double columns = table.getColumns().length + (table.hasChild() ? 10 : 0);
      for (int c = 0; c < count; c++) {
        long first = 1 + rows * c / count;
        long last = rows * (c + 1) / count;
        chunks.add(new Chunk(table, c + 1, first, last, (last - first + 1.0) * lines * columns));
      }
    }
    chunks.sort(Comparator.comparingDouble(Chunk::weight).reversed());
    return chunks;
  }

  private List<Table> tablesAndChildren() {
    List<Table> all = new ArrayList<>();
    for (Table table : tables) {
      if (!table.isChild()) {
        all.add(table);
        if (table.hasChild()) {
          all.add(table.getChild());
        }
      }
    }
    return all;
  }

  private Session session() {
    // Only the scale matters to Results; the file options of dsdgen's command line (directory,
    // suffix, separator, NULL text) and its chunking (parallelism 1, chunk 1) are unused.
    return new Session(scale, "", "", Optional.empty(), "", '|', false, false, 1, false);
  }

  private List<Written> run(List<Chunk> chunks) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (BufferAllocator allocator = Allocators.newChild("tpcds-generator")) {
      List<Future<List<Written>>> futures = new ArrayList<>();
      for (Chunk chunk : chunks) {
        futures.add(pool.submit(() -> write(chunk, allocator)));
      }
      List<Written> written = new ArrayList<>();
      for (Future<List<Written>> future : futures) {
        written.addAll(future.get());
      }
      return written;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted generating TPC-DS data", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private List<Written> write(Chunk chunk, BufferAllocator parent) {
    Table table = chunk.table();
    Session session = session();
    String name = table.getName() + "-" + chunk.chunk();
    try (BufferAllocator allocator = parent.newChildAllocator(name, 0, Long.MAX_VALUE);
        TablePartWriter rows =
            new TablePartWriter(table, dir, chunk.chunk(), format, rowsPerFile, allocator);
        TablePartWriter childRows =
            table.hasChild()
                ? new TablePartWriter(
                    table.getChild(), dir, chunk.chunk(), format, rowsPerFile, allocator)
                : null) {
      // Each element is a row of the table and, for a sales table, its returns row (if any).
      for (List<List<String>> rowAndChild :
          Results.constructResults(table, chunk.first(), chunk.last(), session)) {
        if (!rowAndChild.isEmpty()) {
          rows.add(rowAndChild.get(0));
        }
        if (rowAndChild.size() > 1) {
          childRows.add(rowAndChild.get(1));
        }
      }
      rows.finish();
      List<Written> written = new ArrayList<>();
      written.add(new Written(table, rows.rows(), rows.files()));
      if (childRows != null) {
        childRows.finish();
        written.add(new Written(table.getChild(), childRows.rows(), childRows.files()));
      }
      return written;
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }
}
