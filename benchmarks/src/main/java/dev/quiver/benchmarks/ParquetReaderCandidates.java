package dev.quiver.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.DataFile;
import dev.quiver.formats.FileBatchReader;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.ScanSpec;
import dev.quiver.operators.memory.Allocators;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Issue #16: which Parquet reader can read a chosen subset of a file's row groups, and how fast
 * against today's reader. Not JMH: every candidate runs once per round, the candidates interleaved
 * (A B C A B C ...) because the machine is shared, and the report gives best and median wall time,
 * rows/s and process CPU time per candidate, table and projection, with the load averages seen.
 *
 * <pre>
 *   arrow-1     FileBatchReader (arrow-dataset JNI) over all files, one reader   (today)
 *   arrow-2     two FileBatchReaders at once, the files split between them       (today, 2 tasks)
 *   pj-1        parquet-java readRowGroup + ColumnReader into Arrow, all row groups, one thread
 *   pj-2        the same, two threads, each a contiguous half of the row groups (by bytes)
 *   flink-1     Flink's vectorized reader + copy into Arrow, one thread
 *   flink-2     the same, two threads, each a byte range holding half of the row groups
 * </pre>
 *
 * <p>Before timing, each candidate reads each table and projection once with {@link
 * ColumnChecksums}; the run fails unless row counts, types, null counts and per-column checksums
 * equal {@code arrow-1}'s. Timed runs only count rows and Arrow bytes and close each batch.
 *
 * <pre>
 * java -Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED -Darrow.enable_unsafe_memory_access=true \
 *   -Darrow.enable_null_check_for_get=false -cp benchmarks/target/benchmarks.jar \
 *   dev.quiver.benchmarks.ParquetReaderCandidates [--rounds 5] [--warmup 1] [--out runs.tsv] \
 *   [--candidates arrow-1,pj-1,...] [--table NAME=DIR[:col,col,...]]...
 * </pre>
 */
public final class ParquetReaderCandidates {
  static final int BATCH_ROWS = ScanSpec.DEFAULT_BATCH_ROWS;

  /** A table and its typical projection. */
  record Workload(String name, String location, List<String> typical) {}

  static final List<Workload> DEFAULT_WORKLOADS =
      List.of(
          new Workload(
              "lineitem",
              "/tmp/quiver-tpch-sf1/lineitem",
              // TPC-H Q1's columns
              List.of(
                  "l_returnflag",
                  "l_linestatus",
                  "l_quantity",
                  "l_extendedprice",
                  "l_discount",
                  "l_tax",
                  "l_shipdate")),
          new Workload(
              "store_sales",
              "/tmp/tpcds-sf1-single/store_sales",
              List.of("ss_sold_date_sk", "ss_item_sk", "ss_customer_sk", "ss_ext_sales_price")));

  /** The readers measured. */
  enum Candidate {
    ARROW_1("arrow-1", "arrow-dataset FileBatchReader, 1 reader (today)"),
    ARROW_2("arrow-2", "arrow-dataset FileBatchReader, 2 readers, files split"),
    PJ_1("pj-1", "parquet-java ColumnReader → Arrow, 1 thread"),
    PJ_2("pj-2", "parquet-java ColumnReader → Arrow, 2 threads, row groups split"),
    FLINK_1("flink-1", "Flink vectorized reader + copy to Arrow, 1 thread"),
    FLINK_2("flink-2", "Flink vectorized reader + copy to Arrow, 2 threads, row groups split");

    final String id;
    final String description;

    Candidate(String id, String description) {
      this.id = id;
      this.description = description;
    }

    static Candidate of(String id) {
      for (Candidate c : values()) {
        if (c.id.equals(id)) {
          return c;
        }
      }
      throw new IllegalArgumentException("no candidate " + id);
    }
  }

  /** One open table: its files, row groups and Quiver schema. */
  static final class Table {
    final Workload workload;
    final FileTable files;
    final List<Path> paths;
    final List<RowGroupUnit> units;

    Table(Workload workload) {
      this.workload = workload;
      this.files =
          FileTable.open(
              workload.location(),
              Optional.of(FileFormat.PARQUET),
              CsvOptions.DEFAULT,
              Optional.empty());
      this.paths = files.files().files().stream().map(f -> Path.of(f.path())).toList();
      this.units = RowGroupUnit.of(paths);
    }

    List<String> columns(boolean all) {
      return all
          ? files.schema().getFields().stream().map(Field::getName).toList()
          : workload.typical();
    }

    long bytes() {
      return files.files().files().stream().mapToLong(DataFile::bytes).sum();
    }
  }

  /** A reader as the driver sees it. */
  interface Batches extends AutoCloseable {
    VectorSchemaRoot next();

    @Override
    void close();
  }

  /** The readers of one candidate run, one per thread; empty if the candidate does not apply. */
  static List<Supplier<Batches>> readers(
      Candidate candidate, Table table, List<String> columns, BufferAllocator allocator) {
    ScanSpec spec = table.files.scan(columns, Optional.empty());
    Schema output = spec.outputSchema();
    List<Supplier<Batches>> readers = new ArrayList<>();
    switch (candidate) {
      case ARROW_1 -> readers.add(arrow(table.files.splits(Optional.empty()), spec, allocator));
      case ARROW_2 -> {
        if (table.paths.size() > 1) {
          for (List<FileSplit> part : table.files.assign(2, Optional.empty())) {
            readers.add(arrow(part, spec, allocator));
          }
        }
      }
      case PJ_1 -> readers.add(parquetJava(table.units, output, allocator));
      case PJ_2 -> {
        for (List<RowGroupUnit> part : RowGroupUnit.split(table.units, 2)) {
          readers.add(parquetJava(part, output, allocator));
        }
      }
      case FLINK_1 -> readers.add(flink(table.units, output, allocator));
      case FLINK_2 -> {
        for (List<RowGroupUnit> part : RowGroupUnit.split(table.units, 2)) {
          readers.add(flink(part, output, allocator));
        }
      }
    }
    return readers;
  }

  private static Supplier<Batches> arrow(
      List<FileSplit> splits, ScanSpec spec, BufferAllocator allocator) {
    return () -> {
      FileBatchReader reader = new FileBatchReader(splits, spec, allocator);
      return new Batches() {
        @Override
        public VectorSchemaRoot next() {
          return reader.next();
        }

        @Override
        public void close() {
          reader.close();
        }
      };
    };
  }

  private static Supplier<Batches> parquetJava(
      List<RowGroupUnit> units, Schema output, BufferAllocator allocator) {
    return () -> {
      ParquetJavaBatchReader reader =
          new ParquetJavaBatchReader(units, output, BATCH_ROWS, allocator);
      return new Batches() {
        @Override
        public VectorSchemaRoot next() {
          return reader.next();
        }

        @Override
        public void close() {
          reader.close();
        }
      };
    };
  }

  private static Supplier<Batches> flink(
      List<RowGroupUnit> units, Schema output, BufferAllocator allocator) {
    // One split per file: the contiguous row groups of that file.
    Map<Path, List<RowGroupUnit>> byFile = new LinkedHashMap<>();
    units.forEach(u -> byFile.computeIfAbsent(u.file(), f -> new ArrayList<>()).add(u));
    List<org.apache.flink.connector.file.src.FileSourceSplit> splits = new ArrayList<>();
    byFile
        .values()
        .forEach(part -> splits.add(FlinkParquetBatchReader.split("s" + splits.size(), part)));
    return () -> {
      FlinkParquetBatchReader reader =
          new FlinkParquetBatchReader(splits, output, BATCH_ROWS, allocator);
      return new Batches() {
        @Override
        public VectorSchemaRoot next() {
          return reader.next();
        }

        @Override
        public void close() {
          reader.close();
        }
      };
    };
  }

  /** What one run read and what it cost. */
  record Run(long rows, long arrowBytes, long wallNanos, long cpuNanos, ColumnChecksums sums) {}

  private final ExecutorService pool = Executors.newFixedThreadPool(2, daemonThreads());
  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** Runs the readers (the first on this thread, the others on the pool) to the end. */
  Run run(List<Supplier<Batches>> readers, List<ArrowType> types, boolean verify) throws Exception {
    long cpu = os.getProcessCpuTime();
    long start = System.nanoTime();
    List<Future<Run>> others = new ArrayList<>();
    for (int i = 1; i < readers.size(); i++) {
      Supplier<Batches> reader = readers.get(i);
      others.add(pool.submit(() -> drain(reader, types, verify)));
    }
    Run total = drain(readers.get(0), types, verify);
    for (Future<Run> other : others) {
      Run run = other.get();
      if (verify) {
        total.sums().add(run.sums());
      }
      total =
          new Run(
              total.rows() + run.rows(), total.arrowBytes() + run.arrowBytes(), 0, 0, total.sums());
    }
    long wall = System.nanoTime() - start;
    return new Run(
        total.rows(), total.arrowBytes(), wall, os.getProcessCpuTime() - cpu, total.sums());
  }

  private static Run drain(Supplier<Batches> supplier, List<ArrowType> types, boolean verify) {
    ColumnChecksums sums = verify ? new ColumnChecksums(types) : null;
    long rows = 0;
    long bytes = 0;
    try (Batches reader = supplier.get()) {
      for (VectorSchemaRoot batch; (batch = reader.next()) != null; ) {
        try {
          rows += batch.getRowCount();
          for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
          }
          if (sums != null) {
            sums.add(batch);
          }
        } finally {
          batch.close();
        }
      }
    }
    return new Run(rows, bytes, 0, 0, sums);
  }

  /** The options of one invocation. */
  record Options(
      List<Workload> workloads,
      List<Candidate> candidates,
      int warmup,
      int rounds,
      Optional<Path> out) {
    static Options parse(String... args) {
      List<Workload> workloads = new ArrayList<>();
      List<Candidate> candidates = List.of(Candidate.values());
      int warmup = 1;
      int rounds = 5;
      Optional<Path> out = Optional.empty();
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        switch (args[i]) {
          case "--rounds" -> rounds = Integer.parseInt(args[++i]);
          case "--warmup" -> warmup = Integer.parseInt(args[++i]);
          case "--out" -> out = Optional.of(Path.of(args[++i]));
          case "--candidates" -> {
            candidates = Arrays.stream(args[++i].split(",")).map(Candidate::of).toList();
          }
          case "--table" -> {
            // NAME=DIR[:typical,columns]
            String spec = args[++i];
            String name = spec.substring(0, spec.indexOf('='));
            String rest = spec.substring(spec.indexOf('=') + 1);
            int colon = rest.indexOf(':');
            String dir = colon < 0 ? rest : rest.substring(0, colon);
            List<String> typical =
                colon < 0 ? List.of() : List.of(rest.substring(colon + 1).split(","));
            workloads.add(new Workload(name, dir, typical));
          }
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
        if (value == null) {
          throw new IllegalArgumentException("option " + args[i] + " needs a value");
        }
      }
      return new Options(
          workloads.isEmpty() ? DEFAULT_WORKLOADS : workloads, candidates, warmup, rounds, out);
    }
  }

  /** Timed runs of one candidate on one table and projection. */
  record Series(String table, String projection, int columns, Candidate candidate, List<Run> runs) {
    long medianWall() {
      return median(runs.stream().mapToLong(Run::wallNanos).toArray());
    }

    long bestWall() {
      return runs.stream().mapToLong(Run::wallNanos).min().orElseThrow();
    }

    long medianCpu() {
      return median(runs.stream().mapToLong(Run::cpuNanos).toArray());
    }

    static long median(long[] values) {
      long[] sorted = values.clone();
      Arrays.sort(sorted);
      int n = sorted.length;
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
  }

  /** Verifies, then measures; returns every timed series. */
  List<Series> measure(Options options, PrintStream log) throws Exception {
    List<Table> tables = options.workloads().stream().map(Table::new).toList();
    record Key(int table, boolean all) {}
    List<Key> keys = new ArrayList<>();
    for (int t = 0; t < tables.size(); t++) {
      Table table = tables.get(t);
      log.printf(
          Locale.ROOT,
          "%s: %d file(s), %,d bytes, %d row groups, %,d rows%n",
          table.workload.name(),
          table.paths.size(),
          table.bytes(),
          table.units.size(),
          table.units.stream().mapToLong(RowGroupUnit::rows).sum());
      keys.add(new Key(t, true));
      if (!table.workload.typical().isEmpty()) {
        keys.add(new Key(t, false));
      }
    }
    List<String> loads = new ArrayList<>();
    loads.add(load());
    // Verification: every candidate reads what arrow-1 reads.
    for (Key key : keys) {
      Table table = tables.get(key.table());
      List<String> columns = table.columns(key.all());
      List<ArrowType> types = types(table, columns);
      ColumnChecksums expected = null;
      try (BufferAllocator allocator = Allocators.newChild("readers:verify")) {
        Run reference = run(readers(Candidate.ARROW_1, table, columns, allocator), types, true);
        expected = reference.sums();
        for (Candidate candidate : options.candidates()) {
          List<Supplier<Batches>> readers = readers(candidate, table, columns, allocator);
          if (readers.isEmpty()) {
            continue;
          }
          Run run = run(readers, types, true);
          String difference = expected.difference(run.sums());
          if (difference != null) {
            throw new IllegalStateException(
                candidate.id
                    + " read "
                    + table.workload.name()
                    + " "
                    + columns
                    + " differently from arrow-1: "
                    + difference);
          }
        }
      }
      log.printf(
          Locale.ROOT,
          "verified %s %s: %,d rows, %,d nulls, every candidate equal to arrow-1 (%s)%n",
          table.workload.name(),
          key.all() ? "all" : columns,
          expected.rows(),
          expected.nullCount(),
          expected);
    }
    Map<Key, Map<Candidate, List<Run>>> runs = new LinkedHashMap<>();
    for (int round = -options.warmup(); round < options.rounds(); round++) {
      for (Key key : keys) {
        Table table = tables.get(key.table());
        List<String> columns = table.columns(key.all());
        List<ArrowType> types = types(table, columns);
        for (Candidate candidate : options.candidates()) {
          try (BufferAllocator allocator = Allocators.newChild("readers:" + candidate.id)) {
            List<Supplier<Batches>> readers = readers(candidate, table, columns, allocator);
            if (readers.isEmpty()) {
              continue;
            }
            System.gc();
            Run run = run(readers, types, false);
            if (round >= 0) {
              runs.computeIfAbsent(key, k -> new EnumMap<>(Candidate.class))
                  .computeIfAbsent(candidate, c -> new ArrayList<>())
                  .add(run);
            }
            log.printf(
                Locale.ROOT,
                "%s\t%d\t%s\t%s\t%s\t%d\t%.3f\t%.3f%n",
                round < 0 ? "warmup" : "run",
                round,
                table.workload.name(),
                key.all() ? "all" : "typical",
                candidate.id,
                run.rows(),
                run.wallNanos() / 1e9,
                run.cpuNanos() / 1e9);
          }
        }
      }
      loads.add(load());
    }
    List<Series> series = new ArrayList<>();
    runs.forEach(
        (key, byCandidate) ->
            byCandidate.forEach(
                (candidate, list) -> {
                  Table table = tables.get(key.table());
                  series.add(
                      new Series(
                          table.workload.name(),
                          key.all() ? "all" : "typical",
                          table.columns(key.all()).size(),
                          candidate,
                          List.copyOf(list)));
                }));
    log.println("load averages (1, 5, 15 min) at the start and after each round: " + loads);
    return series;
  }

  private static List<ArrowType> types(Table table, List<String> columns) {
    return table.files.scan(columns, Optional.empty()).outputSchema().getFields().stream()
        .map(Field::getType)
        .toList();
  }

  /** The Markdown table of the series. */
  static String report(List<Series> series) {
    StringBuilder text = new StringBuilder();
    text.append(
        "| table | columns | candidate | rows | best s | median s | M rows/s (median) |"
            + " CPU s (median) | CPU ÷ wall | median ÷ arrow-1 |\n");
    text.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    Map<String, Long> reference = new LinkedHashMap<>();
    for (Series s : series) {
      if (s.candidate() == Candidate.ARROW_1) {
        reference.put(s.table() + "/" + s.projection(), s.medianWall());
      }
    }
    for (Series s : series) {
      double median = s.medianWall() / 1e9;
      double cpu = s.medianCpu() / 1e9;
      Long arrow = reference.get(s.table() + "/" + s.projection());
      long rows = s.runs().get(0).rows();
      text.append(
          String.format(
              Locale.ROOT,
              "| %s | %s (%d) | %s | %,d | %.3f | %.3f | %.2f | %.3f | %.2f | %s |%n",
              s.table(),
              s.projection(),
              s.columns(),
              s.candidate().id,
              rows,
              s.bestWall() / 1e9,
              median,
              rows / median / 1e6,
              cpu,
              cpu / median,
              arrow == null
                  ? ""
                  : String.format(Locale.ROOT, "%.2f", s.medianWall() / (double) arrow)));
    }
    return text.toString();
  }

  private static String load() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  private static java.util.concurrent.ThreadFactory daemonThreads() {
    return runnable -> {
      Thread thread = new Thread(runnable, "reader-candidate");
      thread.setDaemon(true);
      return thread;
    };
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    ParquetReaderCandidates benchmark = new ParquetReaderCandidates();
    List<Series> series = benchmark.measure(options, System.out);
    String report = report(series);
    System.out.println();
    System.out.print(report);
    if (options.out().isPresent()) {
      StringBuilder tsv = new StringBuilder("table\tprojection\tcandidate\trows\twall_s\tcpu_s\n");
      for (Series s : series) {
        for (Run run : s.runs()) {
          tsv.append(
              String.format(
                  Locale.ROOT,
                  "%s\t%s\t%s\t%d\t%.4f\t%.4f%n",
                  s.table(),
                  s.projection(),
                  s.candidate().id,
                  run.rows(),
                  run.wallNanos() / 1e9,
                  run.cpuNanos() / 1e9));
        }
      }
      Files.writeString(options.out().get(), tsv + "\n" + report);
    }
    System.exit(0);
  }
}
