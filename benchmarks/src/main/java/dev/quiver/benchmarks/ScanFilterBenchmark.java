package dev.quiver.benchmarks;

import dev.quiver.formats.ColumnPredicate;
import dev.quiver.formats.ColumnPredicate.Op;
import dev.quiver.formats.ScanPredicate;
import dev.quiver.formats.SubstraitFilter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Building the Substrait filter bytes Arrow's scanner gets ({@link SubstraitFilter#encode}), once
 * per scan task, for a typical pushed predicate over {@code lineitem}: Q6's date and decimal
 * ranges, an IN list as the range it implies ({@code l_shipmode IN ('MAIL', 'SHIP')}) and a string
 * equality, eight conjuncts on five columns.
 *
 * <p>Score: filters built per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class ScanFilterBenchmark {
  static final ScanPredicate PREDICATE =
      ScanPredicate.of(
          new ColumnPredicate("l_shipdate", Op.GE, LocalDate.of(1994, 1, 1)),
          new ColumnPredicate("l_shipdate", Op.LT, LocalDate.of(1995, 1, 1)),
          new ColumnPredicate("l_discount", Op.GE, new BigDecimal("0.05")),
          new ColumnPredicate("l_discount", Op.LE, new BigDecimal("0.07")),
          new ColumnPredicate("l_quantity", Op.LT, new BigDecimal("24")),
          new ColumnPredicate("l_shipmode", Op.GE, "MAIL"),
          new ColumnPredicate("l_shipmode", Op.LE, "SHIP"),
          new ColumnPredicate("l_returnflag", Op.EQ, "R"));

  @Benchmark
  public ByteBuffer encode() {
    return SubstraitFilter.encode(PREDICATE, LineitemBatch.SCHEMA).orElseThrow();
  }
}
