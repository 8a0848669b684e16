package dev.quiver.operators.hash;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Computes one 64-bit hash per row over the key columns of a batch, into a caller-provided {@code
 * long[]} that can be reused across batches.
 *
 * <p>The function is part of Quiver's data plane: producers on different machines partition by it
 * and every consumer's hash join and aggregate must agree with them. It is therefore fixed and
 * deterministic (no seeds, no identity hashes), and an accidental change is a test failure. It
 * guarantees:
 *
 * <ul>
 *   <li>equal values of the same type hash equally, whatever the layout of the batch: buffer
 *       offsets, slices ({@code VectorSchemaRoot.slice}, {@code splitAndTransfer}), neighbouring
 *       nulls or the capacity of the vectors never matter;
 *   <li>a NULL contributes one fixed constant, whatever the column type, so a row whose keys are
 *       all NULL always hashes to the same value for a given number of key columns;
 *   <li>floating point: {@code -0.0} and {@code 0.0} hash equally, and so do all NaNs; a float
 *       hashes like the double of the same value;
 *   <li>integers of every width, dates, times and timestamps hash their value widened to 64 bits
 *       (an int32 5 hashes like an int64 5); booleans hash 0 or 1;
 *   <li>decimal128 hashes its 16 bytes (unscaled value; the scale is part of the type);
 *   <li>utf8 and binary hash their bytes with XXH64, read in place 8 bytes at a time; other
 *       fixed-width types (decimal256, fixed-size binary) hash their bytes the same way.
 * </ul>
 *
 * <p>Columns are combined left to right by {@code h = fmix64(h * 31 + value)}, starting from a
 * fixed seed; fmix64 (the MurmurHash3 finalizer) spreads every input bit over all 64 output bits,
 * so the high bits (used for partitioning, see {@link HashPartitioner}) and the low bits (used by
 * hash tables) are both well distributed and independent of each other.
 */
public final class VectorHasher {
  /** Where every row's hash starts, before the first key column is combined in. */
  static final long SEED = 0x2545_F491_4F6C_DD1DL;

  /**
   * The value a NULL contributes. Outside the int32 range, so it never collides with a narrow
   * integer key.
   */
  static final long NULL_VALUE = 0x9E37_79B9_7F4A_7C15L;

  private VectorHasher() {}

  /**
   * Writes the hash of rows {@code [0, batch.getRowCount())} over the columns {@code keyColumns}
   * (indices into the batch's columns, in key order) into {@code hashes[0 .. rowCount)}. Entries
   * past the row count are left alone.
   */
  public static void hash(VectorSchemaRoot batch, int[] keyColumns, long[] hashes) {
    requireNonNull(batch, "batch is null");
    requireNonNull(keyColumns, "keyColumns is null");
    List<FieldVector> columns = batch.getFieldVectors();
    List<FieldVector> keys = new ArrayList<>(keyColumns.length);
    for (int column : keyColumns) {
      if (column < 0 || column >= columns.size()) {
        throw new IllegalArgumentException(
            "key column " + column + " is outside the batch's " + columns.size() + " columns");
      }
      keys.add(columns.get(column));
    }
    hash(keys, batch.getRowCount(), hashes);
  }

  /**
   * Writes the hash of rows {@code [0, rowCount)} over {@code keys} (in key order) into {@code
   * hashes[0 .. rowCount)}. Without keys every row hashes to the same constant.
   */
  public static void hash(List<? extends FieldVector> keys, int rowCount, long[] hashes) {
    requireNonNull(keys, "keys is null");
    requireNonNull(hashes, "hashes is null");
    if (rowCount < 0 || rowCount > hashes.length) {
      throw new IllegalArgumentException(
          "rowCount " + rowCount + " does not fit hashes of length " + hashes.length);
    }
    for (FieldVector key : keys) {
      requireNonNull(key, "key column is null");
      if (key.getValueCount() < rowCount) {
        throw new IllegalArgumentException(
            "key column "
                + key.getField()
                + " has "
                + key.getValueCount()
                + " values, fewer than "
                + rowCount
                + " rows");
      }
    }
    Arrays.fill(hashes, 0, rowCount, SEED);
    for (FieldVector key : keys) {
      ColumnHashes.combineInto(key, rowCount, hashes);
    }
  }

  /** {@code hashes} if it holds {@code rowCount} entries, else a new, larger array. */
  public static long[] ensureCapacity(long[] hashes, int rowCount) {
    if (rowCount < 0) {
      throw new IllegalArgumentException("rowCount is negative: " + rowCount);
    }
    if (hashes != null && hashes.length >= rowCount) {
      return hashes;
    }
    // Grow by half again, so a stream of slowly growing batches does not reallocate every time.
    int length = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(rowCount, rowCount * 3L / 2));
    return new long[Math.max(length, rowCount)];
  }

  /** Folds one column's value into a row's running hash. */
  static long combine(long hash, long value) {
    return fmix64(hash * 31 + value);
  }

  /**
   * The MurmurHash3 64-bit finalizer: a bijection in which every input bit affects every output.
   */
  static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xFF51_AFD7_ED55_8CCDL;
    k ^= k >>> 33;
    k *= 0xC4CE_B53F_E1A8_5EC3L;
    k ^= k >>> 33;
    return k;
  }
}
