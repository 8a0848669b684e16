package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.PrefixEncoder.batch;
import static dev.quiver.operators.sort.PrefixEncoder.row;

import dev.quiver.plan.sort.SortKey;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Sorts references to rows of many batches ({@code batch << 32 | row}) by a {@link RowComparator}'s
 * keys, stably: rows with equal keys keep the order of their references, which is input order when
 * the references are built in input order.
 *
 * <p>The sort refines groups of rows known to be equal so far, one key (and key part) at a time:
 *
 * <pre>
 *   rows equal on keys < k ─► nulls of key k apart (first or last) ─► their group recurses on k+1
 *                          └► 64-bit prefixes of key k's values ─► packed with the row's position
 *                             ─► one primitive sort ─► groups of equal prefix:
 *                                  exact prefix   ─► recurse on key k+1
 *                                  inexact prefix ─► recurse on the key's next part, or sort the
 *                                                    group with the row comparator
 * </pre>
 *
 * A run's prefixes are reduced to their range ({@code prefix - min}) and packed with the row's
 * position in the run into one long, so a single primitive sort orders by prefix and keeps ties in
 * input order. When range and position do not fit in 63 bits, the sort orders by the high bits of
 * the range first and the groups that tie on them by the rest. Tiny groups are sorted by the row
 * comparator directly.
 */
final class IndexSort {
  private static final int COMPARE_MAX = 12;

  private final RowComparator comparator;
  private final RowComparator.KeyColumns[] bound;
  private final PrefixEncoder[] encoders;
  // Per key, per batch: the validity bitmap, or null when the batch has no null in the column.
  private final ArrowBuf[][] validity;
  private final boolean[] anyNulls;
  private final boolean[] nullsFirst;
  private final long[] flips;
  private long[] refs;
  private long[] packed;
  private long[] scratch;

  /** A sort of rows of {@code batches}, each bound to {@code comparator} in {@code bound}. */
  IndexSort(
      RowComparator comparator,
      List<VectorSchemaRoot> batches,
      List<RowComparator.KeyColumns> bound) {
    this.comparator = comparator;
    this.bound = bound.toArray(new RowComparator.KeyColumns[0]);
    List<SortKey> keys = comparator.keys();
    int count = keys.size();
    encoders = new PrefixEncoder[count];
    validity = new ArrowBuf[count][batches.size()];
    anyNulls = new boolean[count];
    nullsFirst = new boolean[count];
    flips = new long[count];
    for (int k = 0; k < count; k++) {
      SortKey key = keys.get(k);
      List<FieldVector> columns = new ArrayList<>(batches.size());
      for (int b = 0; b < batches.size(); b++) {
        FieldVector column = batches.get(b).getVector(key.column());
        columns.add(column);
        if (column.getNullCount() > 0) {
          validity[k][b] = column.getValidityBuffer();
          anyNulls[k] = true;
        }
      }
      encoders[k] =
          PrefixEncoder.create(
              comparator.schema().getFields().get(key.column()).getType(), columns);
      nullsFirst[k] = key.nullsFirst();
      flips[k] = key.ascending() ? 0 : -1L; // a descending key sorts the complemented prefixes
    }
  }

  /** Sorts {@code refs[0..count)} in place. */
  void sort(long[] rows, int count) {
    refs = rows;
    packed = new long[count];
    scratch = new long[count];
    try {
      sortKey(0, count, 0);
    } finally {
      refs = packed = scratch = null;
    }
  }

  /** Sorts rows {@code [from, to)}, equal on the keys before {@code key} and in input order. */
  private void sortKey(int from, int to, int key) {
    if (to - from < 2 || key == encoders.length) {
      return;
    }
    if (to - from <= COMPARE_MAX) {
      insertionSort(from, to);
      return;
    }
    int nulls = anyNulls[key] ? partitionNulls(from, to, key) : 0;
    if (nulls == 0) {
      sortPart(from, to, key, 0);
    } else if (nullsFirst[key]) {
      sortKey(from, from + nulls, key + 1);
      sortPart(from + nulls, to, key, 0);
    } else {
      sortPart(from, to - nulls, key, 0);
      sortKey(to - nulls, to, key + 1);
    }
  }

  /**
   * Sorts non-null rows equal on the keys before {@code key} and on its parts before {@code part}.
   */
  private void sortPart(int from, int to, int key, int part) {
    int length = to - from;
    if (length <= COMPARE_MAX) {
      insertionSort(from, to);
      return;
    }
    encoders[key].encode(refs, from, to, part, packed);
    long flip = flips[key];
    // Unsigned min and max, as signed ones of the prefixes with their top bit flipped.
    long low = Long.MAX_VALUE;
    long high = Long.MIN_VALUE;
    for (int i = from; i < to; i++) {
      long biased = packed[i] ^ flip ^ Long.MIN_VALUE;
      low = Math.min(low, biased);
      high = Math.max(high, biased);
    }
    long min = low ^ Long.MIN_VALUE;
    long range = high - low;
    if (range == 0) {
      group(from, to, key, part, min ^ flip);
      return;
    }
    int positionBits = Long.SIZE - Long.numberOfLeadingZeros(length - 1);
    int rangeBits = Long.SIZE - Long.numberOfLeadingZeros(range);
    // 63 bits at most: packed values stay non-negative, so signed sorts order them too.
    int shift = Math.max(0, rangeBits + positionBits - (Long.SIZE - 1));
    for (int i = from; i < to; i++) {
      packed[i] = (((packed[i] ^ flip) - min) >>> shift) << positionBits | (i - from);
    }
    PackedSort.sort(packed, scratch, from, to, positionBits, rangeBits - shift);
    long positions = (1L << positionBits) - 1;
    for (int i = from; i < to; i++) {
      scratch[i] = refs[from + (int) (packed[i] & positions)];
    }
    System.arraycopy(scratch, from, refs, from, length);
    for (int start = from; start < to; ) {
      long prefix = packed[start] >>> positionBits;
      int end = start + 1;
      while (end < to && packed[end] >>> positionBits == prefix) {
        end++;
      }
      if (end - start > 1) {
        if (shift > 0) {
          sortPart(start, end, key, part); // equal high bits: order by the rest of the prefix
        } else {
          group(start, end, key, part, (prefix + min) ^ flip);
        }
      }
      start = end;
    }
  }

  /** Orders a group whose part {@code part} of key {@code key} encodes as {@code prefix}. */
  private void group(int from, int to, int key, int part, long prefix) {
    if (encoders[key].exact(prefix, part)) {
      sortKey(from, to, key + 1);
    } else if (part + 1 < encoders[key].parts()) {
      sortPart(from, to, key, part + 1);
    } else {
      mergeSort(from, to);
    }
  }

  /** Moves the rows whose key {@code key} is null to the front or back, stably; returns them. */
  private int partitionNulls(int from, int to, int key) {
    ArrowBuf[] bitmaps = validity[key];
    int nulls = 0;
    for (int i = from; i < to; i++) {
      nulls += isNull(bitmaps, refs[i]) ? 1 : 0;
    }
    if (nulls == 0 || nulls == to - from) {
      return nulls;
    }
    int nullAt = nullsFirst[key] ? from : to - nulls;
    int valueAt = nullsFirst[key] ? from + nulls : from;
    for (int i = from; i < to; i++) {
      long ref = refs[i];
      if (isNull(bitmaps, ref)) {
        scratch[nullAt++] = ref;
      } else {
        scratch[valueAt++] = ref;
      }
    }
    System.arraycopy(scratch, from, refs, from, to - from);
    return nulls;
  }

  private static boolean isNull(ArrowBuf[] bitmaps, long ref) {
    ArrowBuf bitmap = bitmaps[batch(ref)];
    int row = row(ref);
    return bitmap != null && (bitmap.getByte(row >>> 3) & (1 << (row & 7))) == 0;
  }

  /** A stable merge sort by the row comparator, for groups the prefixes cannot order. */
  private void mergeSort(int from, int to) {
    if (to - from <= COMPARE_MAX) {
      insertionSort(from, to);
      return;
    }
    int middle = (from + to) >>> 1;
    mergeSort(from, middle);
    mergeSort(middle, to);
    if (compare(refs[middle - 1], refs[middle]) <= 0) {
      return;
    }
    System.arraycopy(refs, from, scratch, from, middle - from);
    int left = from;
    int right = middle;
    int out = from;
    while (left < middle && right < to) {
      // Only a strictly smaller right row goes first: ties keep input order.
      refs[out++] = compare(refs[right], scratch[left]) < 0 ? refs[right++] : scratch[left++];
    }
    System.arraycopy(scratch, left, refs, out, middle - left);
  }

  private void insertionSort(int from, int to) {
    for (int i = from + 1; i < to; i++) {
      long ref = refs[i];
      int j = i - 1;
      while (j >= from && compare(ref, refs[j]) < 0) {
        refs[j + 1] = refs[j];
        j--;
      }
      refs[j + 1] = ref;
    }
  }

  private int compare(long left, long right) {
    return comparator.compare(bound[batch(left)], row(left), bound[batch(right)], row(right));
  }
}
