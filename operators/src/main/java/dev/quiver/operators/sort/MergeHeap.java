package dev.quiver.operators.sort;

import java.util.Arrays;

/**
 * A binary min-heap of the merge inputs that have a buffered row, ordered by their current rows
 * and, for equal keys, by input index — a total order, so the merge is deterministic.
 */
final class MergeHeap {
  private final RowComparator comparator;
  private final MergeInput[] heap;
  private int size;

  MergeHeap(RowComparator comparator, int capacity) {
    this.comparator = comparator;
    this.heap = new MergeInput[capacity];
  }

  int size() {
    return size;
  }

  /** The input with the smallest current row. */
  MergeInput top() {
    return heap[0];
  }

  void push(MergeInput input) {
    int slot = size++;
    while (slot > 0) {
      int parent = (slot - 1) >>> 1;
      if (!before(input, heap[parent])) {
        break;
      }
      heap[slot] = heap[parent];
      slot = parent;
    }
    heap[slot] = input;
  }

  /** Restores the order after the top input's current row moved on. */
  void topChanged() {
    siftDown(heap[0]);
  }

  /** Removes the top input (it has no buffered row left). */
  void removeTop() {
    MergeInput last = heap[--size];
    heap[size] = null;
    if (size > 0) {
      siftDown(last);
    }
  }

  void clear() {
    Arrays.fill(heap, null);
    size = 0;
  }

  /**
   * The end (exclusive, at most {@code limit}) of the top input's run in its current batch: its
   * rows that still sort before the runner-up, the better child of the root. Gallops 1, 2, 4, ...
   * rows ahead, then halves the last step, so a run of r rows costs O(log r) comparisons.
   */
  int runEnd(int limit) {
    MergeInput winner = heap[0];
    if (size == 1) {
      return limit;
    }
    MergeInput next = size == 2 || before(heap[1], heap[2]) ? heap[1] : heap[2];
    int known = winner.position; // the last row known to sort before the runner-up
    int step = 1;
    int probe = known + 1;
    while (probe < limit && rowBefore(winner, probe, next)) {
      known = probe;
      step <<= 1;
      probe = known + step;
    }
    int low = known + 1;
    int high = Math.min(probe, limit);
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (rowBefore(winner, middle, next)) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  private void siftDown(MergeInput input) {
    int slot = 0;
    while (true) {
      int child = 2 * slot + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && before(heap[child + 1], heap[child])) {
        child++;
      }
      if (!before(heap[child], input)) {
        break;
      }
      heap[slot] = heap[child];
      slot = child;
    }
    heap[slot] = input;
  }

  private boolean before(MergeInput a, MergeInput b) {
    return rowBefore(a, a.position, b);
  }

  /** Whether row {@code row} of {@code input} sorts before the current row of {@code other}. */
  private boolean rowBefore(MergeInput input, int row, MergeInput other) {
    int result = comparator.compare(input.keys, row, other.keys, other.position);
    return result < 0 || (result == 0 && input.index < other.index);
  }
}
