package dev.quiver.operators.aggregate;

import dev.quiver.operators.hash.VectorHasher;
import dev.quiver.plan.aggregate.AggregateCall;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code APPROX_COUNT_DISTINCT(x)}: a HyperLogLog sketch per group of m = 2^p one-byte registers (p
 * = {@value AggregateCall#HLL_PRECISION}, 4 KiB per group, relative standard error 1.04/√m ≈ 1.6%),
 * fed with the 64-bit {@link VectorHasher} hash of each non-null value.
 *
 * <pre>
 *   hash = [ p bits: register | 64 - p bits: w ]   register = max(register, leading zeros of w + 1)
 *   merge = register-wise max (exact: the sketch of a union)   estimate: Ertl's improved estimator
 * </pre>
 *
 * <p>The estimate is Ertl's ("New cardinality estimation algorithms for HyperLogLog sketches",
 * 2017), unbiased over the whole range without the empirical bias tables of HyperLogLog++; for a
 * few values it is the exact count (but where two values share a register).
 *
 * <p>Registers hold the character {@code '0' + rank} (rank 0 to 64 - p + 1, so ASCII '0' to 'e'),
 * and the state is the registers as they are: a utf8 value of 2^p characters (plan schemas have no
 * binary type; ASCII is valid utf8, and the order of ranks is that of the characters).
 *
 * <p>Own code, for now, rather than a sketch library: the state must be an Arrow column that merges
 * (register-wise maximum) and spills like every other partial state, which a per-group sketch
 * object does not give. Apache DataSketches ({@code datasketches-java} 6.1.1, Java 8 bytecode)
 * resolves from Maven Central and has not been measured against this yet.
 */
final class HyperLogLogAccumulator implements Accumulator {
  static final int P = AggregateCall.HLL_PRECISION;
  static final int M = 1 << P;

  /** The largest register value: all 64 - p bits of w zero. */
  private static final int Q = 64 - P;

  /** The character of rank 0 (an empty register). */
  private static final byte ZERO = '0';

  /** What a {@code byte[]} costs beyond its bytes (header, reference). */
  private final Reservation reservation;

  private final Scratch scratch;
  private byte[][] registers = new byte[0][];
  private int groups;

  HyperLogLogAccumulator(Reservation reservation, Scratch scratch) {
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int needed) {
    if (needed <= groups) {
      return;
    }
    if (needed > registers.length) {
      int capacity = Reservation.grownCapacity(registers.length, needed);
      reservation.reserve((long) (capacity - registers.length) * Long.BYTES);
      registers = Arrays.copyOf(registers, capacity);
    }
    // Registers for the groups that exist only: 4 KiB each, never for spare capacity.
    reservation.reserve((long) (needed - groups) * (M + GroupStrings.ARRAY_OVERHEAD));
    for (int g = groups; g < needed; g++) {
      registers[g] = new byte[M];
      Arrays.fill(registers[g], ZERO);
    }
    groups = needed;
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    long[] hashes = scratch.longs(rows);
    VectorHasher.hash(List.of(argument), rows, hashes);
    ArrowBuf validity = Columns.validity(argument);
    byte[][] registers = this.registers;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        long hash = hashes[i];
        int index = (int) (hash >>> Q);
        // A sentinel bit below w keeps the rank within 1 .. Q + 1.
        byte rank = (byte) (ZERO + Long.numberOfLeadingZeros((hash << P) | (1L << (P - 1))) + 1);
        byte[] sketch = registers[groupIds[i]];
        if (rank > sketch[index]) {
          sketch[index] = rank;
        }
      }
    }
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    FieldVector sketches = states.get(0);
    ArrowBuf offsets = sketches.getOffsetBuffer();
    ArrowBuf data = sketches.getDataBuffer();
    for (int i = 0; i < rows; i++) {
      byte[] sketch = registers[groupIds[i]];
      long offset = offsets.getInt((long) i << 2);
      if (offsets.getInt((long) (i + 1) << 2) - offset != M) {
        throw new IllegalStateException("a sketch state of " + M + " registers expected");
      }
      for (int r = 0; r < M; r++) {
        byte rank = data.getByte(offset + r);
        if (rank > sketch[r]) {
          sketch[r] = rank;
        }
      }
    }
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    VarCharVector sketches = (VarCharVector) out.get(0);
    sketches.allocateNew((long) count * M, count);
    for (int i = 0; i < count; i++) {
      sketches.set(i, registers[from + i]);
    }
    sketches.setValueCount(count);
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    Columns.allocate(out, count);
    int[] histogram = new int[Q + 2];
    for (int i = 0; i < count; i++) {
      Columns.setInt(out, Long.BYTES, i, estimate(registers[from + i], histogram));
    }
    out.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    int[] histogram = new int[Q + 2];
    for (int i = 0; i < count; i++) {
      Columns.setInt(out, Long.BYTES, i, estimate(registers[groupIds[i]], histogram));
    }
    out.setValueCount(count);
  }

  /** Ertl's improved estimator over the registers; {@code histogram} is scratch. */
  static long estimate(byte[] sketch, int[] histogram) {
    Arrays.fill(histogram, 0);
    for (byte rank : sketch) {
      histogram[rank - ZERO]++;
    }
    if (histogram[0] == M) {
      return 0;
    }
    double m = M;
    double z = m * tau((m - histogram[Q + 1]) / m);
    for (int k = Q; k >= 1; k--) {
      z = 0.5 * (z + histogram[k]);
    }
    z += m * sigma(histogram[0] / m);
    return Math.round(m * m / (2 * Math.log(2)) / z);
  }

  private static double sigma(double x) {
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    double y = 1;
    double z = x;
    double previous;
    do {
      x *= x;
      previous = z;
      z += x * y;
      y += y;
    } while (previous != z);
    return z;
  }

  private static double tau(double x) {
    if (x == 0 || x == 1) {
      return 0;
    }
    double y = 1;
    double z = 1 - x;
    double previous;
    do {
      x = Math.sqrt(x);
      previous = z;
      y *= 0.5;
      z -= (1 - x) * (1 - x) * y;
    } while (previous != z);
    return z / 3;
  }
}
