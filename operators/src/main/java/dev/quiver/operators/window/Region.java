package dev.quiver.operators.window;

import dev.quiver.operators.kernel.KeyChanges;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A run of whole window partitions in one contiguous batch, with its boundaries: where each
 * partition starts ({@link #bounds}, from the partition-key changes) and, per row, the first and
 * one-past-last row of its peer group (rows of its partition with equal order keys). Without order
 * keys every row of a partition is a peer of every other.
 */
final class Region {
  final VectorSchemaRoot rows;
  final int count;

  /** Partition starts, ascending, then {@link #count}: partition p is [bounds[p], bounds[p+1]). */
  final int[] bounds;

  /** Whether each row starts a partition. */
  final boolean[] starts;

  final int[] peerStart;
  final int[] peerEnd;

  private Region(
      VectorSchemaRoot rows, boolean[] starts, int[] bounds, int[] peerStart, int[] peerEnd) {
    this.rows = rows;
    this.count = rows.getRowCount();
    this.starts = starts;
    this.bounds = bounds;
    this.peerStart = peerStart;
    this.peerEnd = peerEnd;
  }

  /**
   * The boundaries of {@code rows}, where {@code starts[i]} already says whether row {@code i}
   * starts a partition (row 0 always does); peer groups come from {@code orderColumns}.
   */
  static Region of(VectorSchemaRoot rows, boolean[] starts, int[] orderColumns) {
    int n = rows.getRowCount();
    starts[0] = n > 0;
    int partitions = 0;
    for (int i = 0; i < n; i++) {
      partitions += starts[i] ? 1 : 0;
    }
    int[] bounds = new int[partitions + 1];
    for (int i = 0, p = 0; i < n; i++) {
      if (starts[i]) {
        bounds[p++] = i;
      }
    }
    bounds[partitions] = n;
    boolean[] peers = starts.clone();
    boolean[] scratch = new boolean[n];
    List<FieldVector> vectors = rows.getFieldVectors();
    for (int column : orderColumns) {
      KeyChanges.mark(vectors.get(column), n, peers, scratch);
    }
    int[] peerStart = new int[n];
    int[] peerEnd = new int[n];
    int groupStart = 0;
    for (int i = 0; i < n; i++) {
      if (peers[i]) {
        groupStart = i;
      }
      peerStart[i] = groupStart;
    }
    int groupEnd = n;
    for (int i = n - 1; i >= 0; i--) {
      peerEnd[i] = groupEnd;
      if (peers[i]) {
        groupEnd = i;
      }
    }
    return new Region(rows, starts, bounds, peerStart, peerEnd);
  }

  int partitions() {
    return bounds.length - 1;
  }
}
