package dev.quiver.benchmarks;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Bytes moved by a benchmark, reported by JMH next to its score as rates: {@code :arrowBytes} and
 * {@code :wireBytes} are bytes per second (JMH labels them "ops/s"); divide by 10<sup>6</sup> for
 * MB/s. Counting bytes beside the operations lets benchmarks of different codecs be compared by
 * throughput of the same input rather than by operations.
 */
@AuxCounters(AuxCounters.Type.OPERATIONS)
@State(Scope.Thread)
public class ByteCounters {
  /** Uncompressed Arrow buffer bytes (validity, offsets, data) the operations processed. */
  public long arrowBytes;

  /** Bytes written or read in the encoded form (for {@code memcpy}: the bytes copied). */
  public long wireBytes;

  @Setup(Level.Iteration)
  public void reset() {
    arrowBytes = 0;
    wireBytes = 0;
  }
}
