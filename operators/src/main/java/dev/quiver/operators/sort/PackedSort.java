package dev.quiver.operators.sort;

import java.util.Arrays;

/**
 * Sorts packed longs {@code key << positionBits | position} whose positions are already ascending,
 * so equal keys stay in position order whatever the algorithm. Large ranges use a least significant
 * digit radix sort over the key bits only (stable, so the position bits need no pass), skipping
 * digits that are the same in every value; small ranges use {@link Arrays#sort}.
 */
final class PackedSort {
  private static final int RADIX_MIN = 512;
  private static final int DIGIT_BITS = 8;
  private static final int BUCKETS = 1 << DIGIT_BITS;

  private PackedSort() {}

  /**
   * Sorts {@code values[from..to)}, whose keys have {@code keyBits} bits above {@code
   * positionBits}, using {@code scratch[from..to)} as room.
   */
  static void sort(long[] values, long[] scratch, int from, int to, int positionBits, int keyBits) {
    int length = to - from;
    if (length < RADIX_MIN) {
      Arrays.sort(values, from, to);
      return;
    }
    int digits = (keyBits + DIGIT_BITS - 1) / DIGIT_BITS;
    int[] counts = new int[digits * BUCKETS];
    for (int i = from; i < to; i++) {
      long key = values[i] >>> positionBits;
      for (int d = 0; d < digits; d++) {
        counts[d * BUCKETS + (int) ((key >>> (d * DIGIT_BITS)) & (BUCKETS - 1))]++;
      }
    }
    long[] source = values;
    long[] target = scratch;
    long first = values[from] >>> positionBits;
    for (int d = 0; d < digits; d++) {
      int base = d * BUCKETS;
      int shift = positionBits + d * DIGIT_BITS;
      if (counts[base + (int) ((first >>> (d * DIGIT_BITS)) & (BUCKETS - 1))] == length) {
        continue; // every value has this digit: the pass would not move anything
      }
      int next = from;
      for (int bucket = 0; bucket < BUCKETS; bucket++) {
        int count = counts[base + bucket];
        counts[base + bucket] = next;
        next += count;
      }
      for (int i = from; i < to; i++) {
        long value = source[i];
        target[counts[base + (int) ((value >>> shift) & (BUCKETS - 1))]++] = value;
      }
      long[] swap = source;
      source = target;
      target = swap;
    }
    if (source != values) {
      System.arraycopy(source, from, values, from, length);
    }
  }
}
