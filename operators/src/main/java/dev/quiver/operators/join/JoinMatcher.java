package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.TaskInterrupts;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The join-type logic shared by the hash and nested loop joins: it takes candidate pairs, applies
 * the residual filter, remembers which rows matched and emits what the {@link JoinKind} asks for.
 * The operators only find candidate pairs.
 *
 * <p>Per probe batch: {@link #startProbe}, any number of {@link #candidates} calls, {@link
 * #endProbe} (which emits the probe rows of LEFT, semi, anti and mark joins). After the last probe
 * batch, {@link #emitBuildRows} emits the build rows of RIGHT, FULL, RIGHT_SEMI and RIGHT_ANTI
 * joins from the matched flags. Build rows are numbered globally: a build batch (segment) starting
 * at global row {@code base} has rows {@code base .. base + rowCount - 1}.
 */
final class JoinMatcher implements AutoCloseable {
  private static final byte FALSE = 0;
  private static final byte TRUE = 1;
  private static final byte NULL = 2;

  private final JoinKind kind;
  private final JoinType type;
  private final JoinFilter filter;
  private final JoinOutput output;
  private final MemoryBudget budget;
  private final String owner;
  private final int targetRows;
  private final boolean tracksProbeMatches;
  private final boolean[] keep;
  private boolean[] buildMatched = new boolean[0];
  private long reserved;
  private long buildRows;
  private boolean buildHasNullKey;
  private VectorSchemaRoot probe;
  private boolean[] probeMatched = new boolean[0];
  private int[] rows = new int[0];
  private byte[] marks = new byte[0];

  JoinMatcher(
      JoinKind kind,
      JoinFilter filter,
      JoinOutput output,
      MemoryBudget budget,
      String owner,
      int targetRows) {
    this.kind = requireNonNull(kind, "kind is null");
    this.type = kind.type();
    this.filter = filter;
    this.output = requireNonNull(output, "output is null");
    this.budget = requireNonNull(budget, "budget is null");
    this.owner = requireNonNull(owner, "owner is null");
    this.targetRows = targetRows;
    // LEFT and FULL pad unmatched probe rows; semi, anti and mark joins emit by match status.
    this.tracksProbeMatches = type.padsLeft() || type.emitsLeft() && !type.emitsPairs();
    this.keep = new boolean[targetRows];
  }

  /**
   * Records the complete build side: {@code rowCount} rows here, and of the whole build input
   * (which a spilling join splits into partitions) {@code allRows} rows and whether one has a NULL
   * key: null-aware joins need those two. Reserves the matched flags of the build rows here if the
   * type needs them.
   */
  void buildComplete(long rowCount, long allRows, boolean hasNullKey) {
    this.buildRows = allRows;
    this.buildHasNullKey = hasNullKey;
    if (type.tracksRightMatches() && rowCount > 0) {
      budget.reserve(rowCount, "the matched flags of the build rows of " + owner);
      reserved += rowCount;
      buildMatched = new boolean[Math.toIntExact(rowCount)];
    }
  }

  /** Starts the pairs of probe batch {@code batch}. */
  void startProbe(VectorSchemaRoot batch) {
    this.probe = batch;
    int count = batch.getRowCount();
    if (probeMatched.length < count) {
      probeMatched = new boolean[count];
    } else {
      Arrays.fill(probeMatched, 0, count, false);
    }
  }

  /**
   * Handles {@code count ≤ targetRows} candidate pairs of the current probe batch with one build
   * segment: build row {@code buildRows[i]} of {@code build} (global row {@code base +
   * buildRows[i]}) with probe row {@code probeRows[i]}. The arrays' entries are overwritten.
   */
  void candidates(VectorSchemaRoot build, int base, int[] buildRows, int[] probeRows, int count) {
    TaskInterrupts.check(owner);
    int kept = count;
    if (filter != null && count > 0) {
      Arrays.fill(keep, 0, count, false);
      filter.filter(build, buildRows, probe, probeRows, count, keep);
      kept = 0;
      for (int i = 0; i < count; i++) {
        // Branch-free compaction: every pair is written, only kept ones advance the cursor.
        buildRows[kept] = buildRows[i];
        probeRows[kept] = probeRows[i];
        kept += keep[i] ? 1 : 0;
      }
    }
    if (tracksProbeMatches) {
      for (int i = 0; i < kept; i++) {
        probeMatched[probeRows[i]] = true;
      }
    }
    if (type.tracksRightMatches()) {
      for (int i = 0; i < kept; i++) {
        buildMatched[base + buildRows[i]] = true;
      }
    }
    if (type.emitsPairs()) {
      output.pairs(probe, probeRows, build, buildRows, kept);
    }
  }

  /** Marks global build row {@code row} as matched without a pair (right semi and anti joins). */
  void buildMatched(int row) {
    buildMatched[row] = true;
  }

  /** Marks probe row {@code row} as matched without a pair (existence checks of semi joins). */
  void probeMatched(int row) {
    probeMatched[row] = true;
  }

  /**
   * Emits the probe-side rows of the current batch. {@code keyIsNull[row]} says which probe rows
   * have a NULL key; only null-aware joins read it (may be null otherwise).
   */
  void endProbe(boolean[] keyIsNull) {
    VectorSchemaRoot batch = probe;
    probe = null;
    int count = batch.getRowCount();
    if (type == JoinType.LEFT_MARK) {
      if (marks.length < count) {
        marks = new byte[count];
      }
      for (int row = 0; row < count; row++) {
        marks[row] = probeMatched[row] ? TRUE : unmatchedMark(keyIsNull, row);
      }
      output.markedRows(batch, marks);
      return;
    }
    if (!type.padsLeft() && !type.isLeftSemiOrAnti()) {
      return;
    }
    if (rows.length < count) {
      rows = new int[count];
    }
    boolean wanted = type == JoinType.LEFT_SEMI;
    int selected = 0;
    for (int row = 0; row < count; row++) {
      rows[selected] = row;
      selected += probeMatched[row] == wanted && keepsUnmatched(keyIsNull, row) ? 1 : 0;
    }
    output.probeRows(batch, rows, selected);
  }

  /** Emits the build rows the type asks for once all probe rows were seen. */
  void emitBuildRows(List<VectorSchemaRoot> segments) {
    if (!type.tracksRightMatches()) {
      return;
    }
    boolean wanted = type == JoinType.RIGHT_SEMI;
    int[] selected = new int[targetRows];
    int base = 0;
    for (VectorSchemaRoot segment : segments) {
      int segmentRows = segment.getRowCount();
      int count = 0;
      for (int row = 0; row < segmentRows; row++) {
        selected[count] = row;
        count += buildMatched[base + row] == wanted ? 1 : 0;
        if (count == targetRows) {
          output.buildRows(segment, selected, count);
          count = 0;
        }
      }
      output.buildRows(segment, selected, count);
      base += segmentRows;
    }
  }

  /** The mark of an unmatched probe row: FALSE, or NULL under null-aware IN semantics. */
  private byte unmatchedMark(boolean[] keyIsNull, int row) {
    if (!kind.nullAware() || buildRows == 0) {
      return FALSE;
    }
    return buildHasNullKey || keyIsNull[row] ? NULL : FALSE;
  }

  /**
   * Whether an unmatched probe row may be emitted: always, except that a null-aware anti join (NOT
   * IN) drops every row once the build side has a NULL key, and rows with a NULL key once the build
   * side has any row. Matched rows (of semi joins) are unaffected.
   */
  private boolean keepsUnmatched(boolean[] keyIsNull, int row) {
    if (!kind.nullAware() || buildRows == 0 || probeMatched[row]) {
      return true;
    }
    return !buildHasNullKey && !keyIsNull[row];
  }

  @Override
  public void close() {
    budget.release(reserved);
    reserved = 0;
    buildMatched = new boolean[0];
    probe = null;
  }
}
