package dev.quiver.state.spill;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.sort.SortOperator;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import dev.quiver.operators.spill.SpillWriter;
import dev.quiver.plan.sort.SortKey;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Measures spill compression on a sorted run of lineitem rows: the numbers in state/README.md.
 *
 * <pre>
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED -cp &lt;state test classpath&gt; \
 *       dev.quiver.state.spill.SpillCompressionMeasurement [rows | lineitem.arrows] [directory]
 * </pre>
 *
 * The rows are {@link LineitemLike} rows (default 600,000, about SF 0.1), or the batches of an
 * Arrow IPC stream file of real lineitem rows. They are sorted by (l_shipdate, l_orderkey) into
 * 8,192-row batches, then each codec writes the whole run to one spill file and reads it back, best
 * of three. MB/s are 10^6 uncompressed Arrow bytes per second. Arrow's LZ4 codec is measured on the
 * first batch only: it is too slow for more.
 */
public final class SpillCompressionMeasurement {
  private static final int REPEATS = 3;

  private SpillCompressionMeasurement() {}

  public static void main(String[] args) throws Exception {
    String source = args.length > 0 ? args[0] : "600000";
    Path directory = Path.of(args.length > 1 ? args[1] : System.getProperty("java.io.tmpdir"));
    try (BufferAllocator allocator = Allocators.newChild("measurement")) {
      List<VectorSchemaRoot> run = sorted(load(source, allocator), allocator);
      try {
        long rows = run.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
        long arrowBytes = run.stream().mapToLong(SpillCompressionMeasurement::bytes).sum();
        System.out.printf(
            "%d rows in %d batches, %,d Arrow bytes, sorted by (l_shipdate, l_orderkey)%n%n",
            rows, run.size(), arrowBytes);
        System.out.println("| compression | file bytes | % of Arrow | write MB/s | read MB/s |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (SpillCompression compression :
            List.of(
                SpillCompression.NONE,
                SpillCompression.zstd(-1),
                SpillCompression.zstd(1),
                SpillCompression.zstd(3),
                SpillCompression.LZ4)) {
          List<VectorSchemaRoot> batches =
              compression.equals(SpillCompression.LZ4) ? run.subList(0, 1) : run;
          measure(compression, batches, directory, allocator);
        }
      } finally {
        AutoCloseables.close(run);
      }
    }
  }

  private static void measure(
      SpillCompression compression,
      List<VectorSchemaRoot> batches,
      Path directory,
      BufferAllocator allocator)
      throws Exception {
    long arrowBytes = batches.stream().mapToLong(SpillCompressionMeasurement::bytes).sum();
    int repeats = compression.equals(SpillCompression.LZ4) ? 1 : REPEATS;
    long bestWrite = Long.MAX_VALUE;
    long bestRead = Long.MAX_VALUE;
    long fileBytes = 0;
    for (int r = 0; r < repeats; r++) {
      try (FileSpillSpace space = new FileSpillSpace(List.of(directory), "measure", compression)) {
        long start = System.nanoTime();
        SpillFile file;
        try (SpillWriter writer = space.create(LineitemLike.SCHEMA, "run")) {
          for (VectorSchemaRoot batch : batches) {
            writer.write(batch);
          }
          file = writer.finish();
        }
        bestWrite = Math.min(bestWrite, System.nanoTime() - start);
        fileBytes = file.bytes();
        start = System.nanoTime();
        try (file;
            SpillReader reader = file.open(allocator)) {
          for (VectorSchemaRoot batch = reader.next(); batch != null; batch = reader.next()) {
            batch.close();
          }
        }
        bestRead = Math.min(bestRead, System.nanoTime() - start);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "| %s%s | %,d | %.1f%% | %s | %s |%n",
        compression,
        batches.size() == 1 ? " (1 batch)" : "",
        fileBytes,
        100.0 * fileBytes / arrowBytes,
        rate(arrowBytes, bestWrite),
        rate(arrowBytes, bestRead));
  }

  /** MB/s, with two decimals when below 10. */
  private static String rate(long bytes, long nanos) {
    double rate = bytes * 1e3 / nanos;
    return String.format(Locale.ROOT, rate < 10 ? "%.2f" : "%,.0f", rate);
  }

  private static List<VectorSchemaRoot> load(String source, BufferAllocator allocator)
      throws IOException {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    if (source.chars().allMatch(Character::isDigit)) {
      LineitemLike generator = new LineitemLike(1);
      for (long left = Long.parseLong(source); left > 0; left -= 8192) {
        batches.add(generator.batch((int) Math.min(8192, left), allocator));
      }
      return batches;
    }
    try (ArrowStreamReader reader =
        new ArrowStreamReader(
            FileChannel.open(Path.of(source), StandardOpenOption.READ),
            allocator,
            CommonsCompressionFactory.INSTANCE)) {
      while (reader.loadNextBatch()) {
        batches.add(BatchTransfer.move(reader.getVectorSchemaRoot(), allocator));
      }
    }
    return batches;
  }

  /** The batches sorted by (l_shipdate, l_orderkey) into 8,192-row batches; closes the input. */
  private static List<VectorSchemaRoot> sorted(
      List<VectorSchemaRoot> input, BufferAllocator allocator) {
    List<VectorSchemaRoot> output = new ArrayList<>();
    try (SortOperator sort =
        new SortOperator(
            OperatorContext.of(allocator),
            LineitemLike.SCHEMA,
            List.of(SortKey.asc(10), SortKey.asc(0)),
            output::add)) {
      input.forEach(batch -> sort.add(0, BatchTransfer.withSchema(batch, LineitemLike.SCHEMA)));
      sort.finish(0);
    }
    return output;
  }

  /** Uncompressed Arrow bytes: the bytes of the values, as an IPC body holds them. */
  private static long bytes(VectorSchemaRoot batch) {
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      bytes += vector.getBufferSize();
    }
    return bytes;
  }
}
