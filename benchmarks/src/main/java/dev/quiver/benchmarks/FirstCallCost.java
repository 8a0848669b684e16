package dev.quiver.benchmarks;

import dev.quiver.formats.ColumnPredicate;
import dev.quiver.formats.ColumnPredicate.Op;
import dev.quiver.formats.ParquetFooter;
import dev.quiver.formats.ScanPredicate;
import dev.quiver.formats.SubstraitFilter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.LoggerFactory;

/**
 * What the first footer decode and the first scan filter cost a fresh JVM, and what each later one
 * costs, in the calling thread's CPU time (which a loaded machine disturbs far less than wall time,
 * the figure JMH's single-shot mode reports). Run one JVM per measurement:
 *
 * <pre>
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *       dev.quiver.benchmarks.FirstCallCost some.parquet
 * </pre>
 *
 * Logging is initialised before timing, as it is in every Quiver process, so its start is not
 * charged to whichever library logs first.
 */
public final class FirstCallCost {
  private static final int REPEATS = 2_000;

  private FirstCallCost() {}

  public static void main(String[] args) throws Exception {
    LoggerFactory.getLogger(FirstCallCost.class).debug("logging initialised before timing");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    byte[] footer = footerBytes(Path.of(args[0]));
    long start = threads.getCurrentThreadCpuTime();
    ParquetFooter.decode(footer);
    long first = threads.getCurrentThreadCpuTime() - start;
    long steady = steadyNanos(threads, () -> ParquetFooter.decode(footer));
    System.out.printf(
        "footer decode (%,d bytes): first %.1f ms, then %.1f us each%n",
        footer.length, first / 1e6, steady / 1e3);

    Schema schema = lineitemLike();
    ScanPredicate predicate = eightConjuncts();
    start = threads.getCurrentThreadCpuTime();
    SubstraitFilter.encode(predicate, schema).orElseThrow();
    first = threads.getCurrentThreadCpuTime() - start;
    steady = steadyNanos(threads, () -> SubstraitFilter.encode(predicate, schema));
    System.out.printf(
        "scan filter (8 conjuncts): first %.1f ms, then %.1f us each%n", first / 1e6, steady / 1e3);
  }

  /** Mean CPU nanoseconds per call over the second of two rounds (the first warms the JIT). */
  private static long steadyNanos(ThreadMXBean threads, Runnable call) {
    for (int i = 0; i < REPEATS; i++) {
      call.run();
    }
    long start = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < REPEATS; i++) {
      call.run();
    }
    return (threads.getCurrentThreadCpuTime() - start) / REPEATS;
  }

  /** The Thrift-encoded footer of a Parquet file: the bytes before its length and "PAR1". */
  private static byte[] footerBytes(Path file) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    int length =
        ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    return Arrays.copyOfRange(bytes, bytes.length - 8 - length, bytes.length - 8);
  }

  private static Schema lineitemLike() {
    return new Schema(
        List.of(
            Field.nullable("l_orderkey", new ArrowType.Int(64, true)),
            Field.nullable("l_quantity", new ArrowType.Decimal(15, 2, 128)),
            Field.nullable("l_discount", new ArrowType.Decimal(15, 2, 128)),
            Field.nullable("l_shipdate", new ArrowType.Date(DateUnit.DAY)),
            Field.nullable("l_shipmode", new ArrowType.Utf8())));
  }

  private static ScanPredicate eightConjuncts() {
    return new ScanPredicate(
        List.of(
            new ColumnPredicate("l_shipdate", Op.GE, LocalDate.of(1994, 1, 1)),
            new ColumnPredicate("l_shipdate", Op.LT, LocalDate.of(1995, 1, 1)),
            new ColumnPredicate("l_discount", Op.GE, new BigDecimal("0.05")),
            new ColumnPredicate("l_discount", Op.LE, new BigDecimal("0.07")),
            new ColumnPredicate("l_quantity", Op.LT, new BigDecimal("24")),
            new ColumnPredicate("l_shipmode", Op.GE, "AIR"),
            new ColumnPredicate("l_shipmode", Op.LE, "RAIL"),
            new ColumnPredicate("l_orderkey", Op.GT, 100L)));
  }
}
