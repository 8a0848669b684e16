package dev.quiver.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Input rows a query benchmark consumed, reported by JMH next to its score as two rates (labelled
 * "ops/s"): {@code :rows} is input rows per second of wall-clock time; {@code :cpuRows} is input
 * rows per second of the benchmark thread's own CPU time.
 *
 * <p>The CPU rate holds when other processes compete for the cores, as they do on a shared machine.
 * It covers both engines: DuckDB with {@code threads=1} runs a query's pipelines on the calling
 * thread, Quiver's operators run on it by construction; GC and JIT threads are not counted. JMH
 * divides every counter by the iteration's wall time, so each invocation adds its rows scaled by
 * its wall time over its CPU time.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class InputRows {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Rows of every input table the queries read (for a join: build plus probe rows). */
  public long rows;

  /** The same rows, weighted by wall time over CPU time of their invocation. */
  public double cpuRows;

  private long wallStart;
  private long cpuStart;

  @Setup(Level.Iteration)
  public void reset() {
    rows = 0;
    cpuRows = 0;
  }

  /** Starts timing one invocation. */
  void start() {
    wallStart = System.nanoTime();
    cpuStart = THREADS.getCurrentThreadCpuTime();
  }

  /** Ends the invocation started last, which read {@code inputRows} rows. */
  void count(long inputRows) {
    long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
    long wall = System.nanoTime() - wallStart;
    rows += inputRows;
    cpuRows += cpu <= 0 ? 0 : inputRows * ((double) wall / cpu);
  }
}
