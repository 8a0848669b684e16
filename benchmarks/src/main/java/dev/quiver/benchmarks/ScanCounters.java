package dev.quiver.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a scan benchmark read, reported by JMH next to its score as rates per second of wall time
 * (labelled "ops/s"): {@code :rows}; {@code :fileBytes}, the Parquet files' sizes; {@code
 * :columnBytes}, the compressed size of the projected column chunks (the bytes a columnar reader
 * must fetch); {@code :arrowBytes}, the Arrow buffers delivered (Quiver only); {@code
 * :processCpuRows}, rows per second of the whole process's CPU time (every thread, native ones
 * included, so a reader decoding on helper threads is not flattered), and {@code :threadCpuRows},
 * rows per second of the benchmark thread's CPU time. Divide byte rates by 10<sup>6</sup> for MB/s.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class ScanCounters {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  public long rows;
  public long fileBytes;
  public long columnBytes;
  public long arrowBytes;

  /** Rows weighted by wall time over process CPU time of their invocation. */
  public double processCpuRows;

  /** Rows weighted by wall time over the benchmark thread's CPU time of their invocation. */
  public double threadCpuRows;

  private long wallStart;
  private long processCpuStart;
  private long threadCpuStart;

  @Setup(Level.Iteration)
  public void reset() {
    rows = 0;
    fileBytes = 0;
    columnBytes = 0;
    arrowBytes = 0;
    processCpuRows = 0;
    threadCpuRows = 0;
  }

  /** Starts timing one invocation. */
  void start() {
    wallStart = System.nanoTime();
    processCpuStart = OS.getProcessCpuTime();
    threadCpuStart = THREADS.getCurrentThreadCpuTime();
  }

  /** Ends the invocation started last. */
  void count(long scannedRows, long scannedFileBytes, long scannedColumnBytes, long arrow) {
    long threadCpu = THREADS.getCurrentThreadCpuTime() - threadCpuStart;
    long processCpu = OS.getProcessCpuTime() - processCpuStart;
    double wall = System.nanoTime() - wallStart;
    rows += scannedRows;
    fileBytes += scannedFileBytes;
    columnBytes += scannedColumnBytes;
    arrowBytes += arrow;
    processCpuRows += processCpu <= 0 ? 0 : scannedRows * (wall / processCpu);
    threadCpuRows += threadCpu <= 0 ? 0 : scannedRows * (wall / threadCpu);
  }
}
