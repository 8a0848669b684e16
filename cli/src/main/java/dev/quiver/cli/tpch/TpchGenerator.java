package dev.quiver.cli.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileWriters;
import dev.quiver.operators.memory.Allocators;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates the eight TPC-H tables at any scale factor into {@code DIR/<table>/part-NNNNN.<ext>},
 * as Parquet (default) or CSV, with the types of {@link TpchSchemas}.
 *
 * <p>Each table is cut into parts of about {@code rowsPerFile} rows (nation and region are one
 * part); io.trino.tpch generates every part independently, so parts are generated and written in
 * parallel on a thread pool, each into its own file, largest first. The Parquet files hold one row
 * group per 1 Mi rows, with statistics.
 *
 * <p>A complete data set ends with a {@code _SUCCESS} file naming its scale factor and format,
 * written last. If it is present and matches, generation is skipped; otherwise the table
 * directories are deleted and generated again (so an interrupted run never leaves a half data set
 * that looks whole).
 */
public final class TpchGenerator {
  private static final Logger LOG = LoggerFactory.getLogger(TpchGenerator.class);

  /** The marker of a complete data set. */
  public static final String SUCCESS = "_SUCCESS";

  /** The default rows per file: SF 1 lineitem becomes 6 files, orders 2. */
  public static final long DEFAULT_ROWS_PER_FILE = 1_000_000;

  private static final int BATCH_ROWS = 8192;

  /** What a run did: per-table rows and files, and whether it found the data already there. */
  public record Result(
      boolean skipped, Map<String, Long> rows, Map<String, Integer> files, long millis) {}

  private record Part(TpchTable<?> table, int part, int parts, Path file, double weight) {}

  private final Path dir;
  private final double scale;
  private final FileFormat format;
  private final int threads;
  private final long rowsPerFile;

  /**
   * @param format {@link FileFormat#PARQUET} or {@link FileFormat#CSV}
   * @param threads generator threads
   */
  public TpchGenerator(Path dir, double scale, FileFormat format, int threads, long rowsPerFile) {
    this.dir = requireNonNull(dir, "dir is null").toAbsolutePath();
    if (!(scale > 0)) {
      throw new IllegalArgumentException("scale factor must be positive: " + scale);
    }
    if (format == FileFormat.ARROW_IPC) {
      throw new IllegalArgumentException("TPC-H data is generated as Parquet or CSV");
    }
    if (threads < 1 || rowsPerFile < 1) {
      throw new IllegalArgumentException("threads and rowsPerFile must be positive");
    }
    this.scale = scale;
    this.format = requireNonNull(format, "format is null");
    this.threads = threads;
    this.rowsPerFile = rowsPerFile;
  }

  /** Parquet, one thread per processor, {@link #DEFAULT_ROWS_PER_FILE}. */
  public TpchGenerator(Path dir, double scale) {
    this(
        dir,
        scale,
        FileFormat.PARQUET,
        Runtime.getRuntime().availableProcessors(),
        DEFAULT_ROWS_PER_FILE);
  }

  /** The directory of {@code table}'s files. */
  public Path tableDir(TpchTable<?> table) {
    return dir.resolve(table.getTableName());
  }

  /** Generates the data set unless {@code DIR/_SUCCESS} says it is already there. */
  public Result generate() {
    long start = System.nanoTime();
    String marker = marker();
    Path success = dir.resolve(SUCCESS);
    if (Files.isRegularFile(success) && read(success).equals(marker)) {
      LOG.info("TPC-H SF {} {} already in {}", scale, format, dir);
      return new Result(true, Map.of(), Map.of(), 0);
    }
    try {
      Files.deleteIfExists(success);
      for (TpchTable<?> table : TpchTable.getTables()) {
        deleteRecursively(tableDir(table));
      }
      Map<String, Long> rows = run(parts());
      Map<String, Integer> files = new TreeMap<>();
      for (Part part : parts()) {
        files.merge(part.table().getTableName(), 1, Integer::sum);
      }
      Path temp = dir.resolve("." + SUCCESS + ".tmp");
      Files.writeString(temp, marker);
      Files.move(
          temp, success, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      long millis = (System.nanoTime() - start) / 1_000_000;
      LOG.info("TPC-H SF {} {} written to {} in {} ms", scale, format, dir, millis);
      return new Result(false, rows, files, millis);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot generate TPC-H data in " + dir, e);
    }
  }

  private String marker() {
    return "scale=" + scale + "\nformat=" + format + "\n";
  }

  private List<Part> parts() {
    List<Part> parts = new ArrayList<>();
    for (TpchTable<?> table : TpchTable.getTables()) {
      double rows = baseRows(table.getTableName()) * (fixedSize(table) ? 1 : scale);
      int count = fixedSize(table) ? 1 : (int) Math.max(1, Math.ceil(rows / rowsPerFile));
      for (int p = 0; p < count; p++) {
        Path file =
            tableDir(table).resolve(String.format("part-%05d%s", p, format.defaultExtension()));
        parts.add(new Part(table, p + 1, count, file, rows / count * table.getColumns().size()));
      }
    }
    parts.sort(Comparator.comparingDouble(Part::weight).reversed());
    return parts;
  }

  private Map<String, Long> run(List<Part> parts) throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (BufferAllocator allocator = Allocators.newChild("tpch-generator")) {
      List<Future<Long>> futures = new ArrayList<>();
      for (Part part : parts) {
        futures.add(pool.submit(() -> write(part, allocator)));
      }
      Map<String, Long> rows = new TreeMap<>();
      for (int i = 0; i < parts.size(); i++) {
        rows.merge(parts.get(i).table().getTableName(), futures.get(i).get(), Long::sum);
      }
      return rows;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted generating TPC-H data", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private long write(Part part, BufferAllocator parent) {
    try (BufferAllocator allocator =
        parent.newChildAllocator(part.file().toString(), 0, Long.MAX_VALUE)) {
      return write(part.table(), part, allocator);
    }
  }

  private <E extends TpchEntity> long write(
      TpchTable<E> table, Part part, BufferAllocator allocator) {
    Iterable<E> rows = table.createGenerator(scale, part.part(), part.parts());
    TpchBatchReader<E> reader = new TpchBatchReader<>(allocator, table, rows, BATCH_ROWS);
    return FileWriters.write(reader, format, part.file(), allocator);
  }

  // Rows at SF 1 (lineitem is about 6 M: a random 1-7 lines per order).
  private static double baseRows(String table) {
    return switch (table) {
      case "lineitem" -> 6_000_000;
      case "orders" -> 1_500_000;
      case "partsupp" -> 800_000;
      case "part" -> 200_000;
      case "customer" -> 150_000;
      case "supplier" -> 10_000;
      case "nation" -> 25;
      case "region" -> 5;
      default -> throw new IllegalArgumentException("unknown TPC-H table " + table);
    };
  }

  private static boolean fixedSize(TpchTable<?> table) {
    return table == TpchTable.NATION || table == TpchTable.REGION;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }

  private static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
