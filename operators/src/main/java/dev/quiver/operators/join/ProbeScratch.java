package dev.quiver.operators.join;

import dev.quiver.plan.join.JoinKind;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The reusable arrays of a hash join's probe loop, and the hand-off of collected pairs to the
 * {@link JoinMatcher} one build segment at a time.
 *
 * <p>Pairs are collected with global build row numbers. With one build segment (the usual case)
 * they go to the matcher as they are; with several, each batch of pairs is split by segment with a
 * stable counting sort and every segment's run goes on with rows relative to that segment.
 */
final class ProbeScratch {
  final int[] buildRows;
  final int[] probeRows;
  long[] hashes = new long[0];
  int[] groupIds = new int[0];
  private final int[] runBuildRows;
  private final int[] runProbeRows;
  private List<VectorSchemaRoot> segments = List.of();
  private int[] segmentStarts = new int[0];
  private int[] segmentOf = new int[0];
  private int[] segmentFill = new int[0];
  private boolean[] keyIsNull = new boolean[0];

  ProbeScratch(int targetRows) {
    this.buildRows = new int[targetRows];
    this.probeRows = new int[targetRows];
    this.runBuildRows = new int[targetRows];
    this.runProbeRows = new int[targetRows];
  }

  /** Sets the build segments that global build row numbers refer to. */
  void segments(List<VectorSchemaRoot> segments) {
    this.segments = segments;
    this.segmentStarts = new int[segments.size()];
    int start = 0;
    for (int i = 0; i < segments.size(); i++) {
      segmentStarts[i] = start;
      start += segments.get(i).getRowCount();
    }
    if (segments.size() > 1) {
      this.segmentOf = new int[buildRows.length];
      this.segmentFill = new int[segments.size() + 1];
    }
  }

  /** Grows the per-probe-row arrays to hold {@code rows} rows. */
  void ensure(int rows) {
    if (hashes.length < rows) {
      hashes = new long[rows];
      groupIds = new int[rows];
    }
  }

  /** Hands {@code buildRows/probeRows[0 .. count)} (global build rows) to {@code matcher}. */
  void handOn(JoinMatcher matcher, int count) {
    if (count == 0) {
      return;
    }
    if (segments.size() == 1) {
      matcher.candidates(segments.get(0), 0, buildRows, probeRows, count);
      return;
    }
    // Counting sort by segment: count, prefix sums, scatter with segment-relative rows.
    Arrays.fill(segmentFill, 0);
    for (int i = 0; i < count; i++) {
      int segment = Arrays.binarySearch(segmentStarts, buildRows[i]);
      segment = segment >= 0 ? segment : -segment - 2;
      segmentOf[i] = segment;
      segmentFill[segment + 1]++;
    }
    for (int s = 1; s < segmentFill.length; s++) {
      segmentFill[s] += segmentFill[s - 1];
    }
    int[] ends = segmentFill.clone();
    for (int i = 0; i < count; i++) {
      int segment = segmentOf[i];
      int at = segmentFill[segment]++;
      runBuildRows[at] = buildRows[i] - segmentStarts[segment];
      runProbeRows[at] = probeRows[i];
    }
    for (int s = 0; s < segments.size(); s++) {
      int from = ends[s];
      int length = ends[s + 1] - from;
      if (length > 0) {
        // The matcher takes arrays starting at 0 and may overwrite them: move each run there.
        System.arraycopy(runBuildRows, from, buildRows, 0, length);
        System.arraycopy(runProbeRows, from, probeRows, 0, length);
        matcher.candidates(segments.get(s), segmentStarts[s], buildRows, probeRows, length);
      }
    }
  }

  /** Which probe rows have a NULL key, for null-aware joins (single key); null otherwise. */
  boolean[] keyIsNull(VectorSchemaRoot probe, int[] probeKeys, JoinKind kind) {
    if (!kind.nullAware()) {
      return null;
    }
    int rows = probe.getRowCount();
    if (keyIsNull.length < rows) {
      keyIsNull = new boolean[rows];
    }
    FieldVector key = probe.getVector(probeKeys[0]);
    for (int row = 0; row < rows; row++) {
      keyIsNull[row] = key.isNull(row);
    }
    return keyIsNull;
  }
}
