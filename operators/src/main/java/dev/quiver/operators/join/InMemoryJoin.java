package dev.quiver.operators.join;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.join.JoinType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One build side joined in memory: the whole build input of a hash join, or one partition of it
 * when the join spilled ({@link GraceJoin}). Build rows arrive in a {@link BuildBuffer}; {@link
 * #tryBuild} turns them into segments and a {@link JoinHashTable}; probe batches stream through
 * {@link #probe}; {@link #finish} emits the build rows the join type asks for.
 *
 * <pre>
 *   BuildBuffer ─compact─► segments ─► JoinHashTable (key → group → row chain)
 *   probe ─► hash, find group, walk chains ─► (build row, probe row) pairs, ≤ target at a time
 *         ─► residual filter ─► JoinMatcher ─► JoinOutput (shared by every partition)
 * </pre>
 *
 * <p>Everything that needs the budget is reserved by {@link #tryBuild}, so probing never fails for
 * memory: a spilling join decides to split a partition before it probes it.
 */
final class InMemoryJoin implements AutoCloseable {
  /** What a partition must know about the whole build input: null-aware joins depend on it. */
  record BuildFacts(long rows, boolean hasNullKey) {}

  private final HashJoinSpec spec;
  private final JoinType type;
  private final BuildBuffer build;
  private final JoinMatcher matcher;
  private final ProbeScratch scratch;
  private final int targetRows;
  private JoinHashTable table;
  private boolean emitsNothing;

  /** Joins the rows of {@code build}, which it owns from now on, into {@code output}. */
  InMemoryJoin(HashJoinSpec spec, BuildBuffer build, JoinOutput output) {
    this.spec = spec;
    this.type = spec.type();
    this.build = build;
    this.targetRows = spec.context().targetBatchRows();
    this.matcher =
        new JoinMatcher(
            spec.kind(), spec.filter(), output, spec.context().budget(), spec.owner(), targetRows);
    this.scratch = new ProbeScratch(targetRows);
  }

  /** The build rows; after a refused {@link #tryBuild} all of them are still here. */
  BuildBuffer build() {
    return build;
  }

  /**
   * Builds the hash table and everything probing needs. {@code facts} describes the whole build
   * input, or is null when these rows are the whole build input. Returns null, or the budget's
   * refusal: then nothing but the build rows is held, and they are all still in {@link #build()}.
   */
  QuiverException tryBuild(BuildFacts facts) {
    QuiverException refused =
        build.compact(
            spec.buildSchema(),
            spec.context().allocator(),
            spec.segmentRows(),
            HashJoinOperator.SEGMENT_BYTES);
    if (refused != null) {
      return refused;
    }
    JoinHashTable built = null;
    try {
      built =
          new JoinHashTable(
              JoinInputs.fields(spec.buildSchema(), spec.buildKeys()),
              spec.buildKeys(),
              spec.context().allocator(),
              spec.context().budget(),
              spec.owner());
      built.build(build.batches(), build.rowCount());
      long rows = facts == null ? build.rowCount() : facts.rows();
      boolean nullKey = facts == null ? built.hasNullKey() : facts.hasNullKey();
      matcher.buildComplete(build.rowCount(), rows, nullKey);
      if (type.isRightSemiOrAnti() && spec.filter() == null) {
        built.prepareProbedGroups();
      }
      if (build.rowCount() > 0) {
        built.ensureProbeRows(targetRows); // an empty build side is never looked up
      }
      emitsNothing = spec.emitsNothing(rows, nullKey);
    } catch (QuiverException e) {
      AutoCloseables.closeNoChecked(built);
      matcher.close();
      if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
        throw e;
      }
      return e;
    } catch (RuntimeException | Error e) {
      AutoCloseables.closeNoChecked(built);
      throw e;
    }
    table = built;
    scratch.segments(build.batches());
    return null;
  }

  /**
   * Joins a probe batch (the caller keeps it), in slices of at most the target rows: the lookup
   * scratch for that many was reserved by {@link #tryBuild}.
   */
  void probe(VectorSchemaRoot probe) {
    if (table == null) {
      throw new IllegalStateException(spec.owner() + " failed to build its hash table: close it");
    }
    int rows = probe.getRowCount();
    if (rows <= targetRows) {
      probeSlice(probe);
      return;
    }
    for (int from = 0; from < rows; from += targetRows) {
      try (VectorSchemaRoot slice = probe.slice(from, Math.min(targetRows, rows - from))) {
        probeSlice(slice);
      }
    }
  }

  private void probeSlice(VectorSchemaRoot probe) {
    int rows = probe.getRowCount();
    int[] probeKeys = spec.probeKeys();
    matcher.startProbe(probe);
    if (rows == 0 || build.rowCount() == 0 || emitsNothing) {
      matcher.endProbe(emitsNothing ? null : scratch.keyIsNull(probe, probeKeys, spec.kind()));
      return;
    }
    List<FieldVector> keys = new ArrayList<>(probeKeys.length);
    for (int column : probeKeys) {
      keys.add(probe.getVector(column));
    }
    scratch.ensure(rows);
    int[] groupIds = scratch.groupIds;
    table.find(keys, rows, scratch.hashes, groupIds);
    int[] head = table.head();
    JoinFilter filter = spec.filter();
    if (type.isRightSemiOrAnti() && filter == null) {
      table.markProbed(groupIds, rows); // build rows are marked once, at the end
    } else if (!type.emitsPairs() && !type.tracksRightMatches() && filter == null) {
      // Semi, anti and mark joins without a filter only ask whether a key has a build row.
      for (int row = 0; row < rows; row++) {
        int group = groupIds[row];
        if (group >= 0 && head[group] >= 0) {
          matcher.probeMatched(row);
        }
      }
    } else {
      walkChains(rows, groupIds, head, table.next());
    }
    matcher.endProbe(scratch.keyIsNull(probe, probeKeys, spec.kind()));
  }

  /**
   * Lists the (build row, probe row) pairs of every probe row's chain, handing them on whenever
   * {@code targetRows} are collected, so a key with a huge fan-out never builds a huge batch.
   */
  private void walkChains(int rows, int[] groupIds, int[] head, int[] next) {
    int[] buildRows = scratch.buildRows;
    int[] probeRows = scratch.probeRows;
    int count = 0;
    int row = 0;
    int current = -1;
    while (row < rows) {
      if (current < 0) {
        int group = groupIds[row];
        current = group < 0 ? -1 : head[group];
        if (current < 0) {
          row++;
          continue;
        }
      }
      buildRows[count] = current;
      probeRows[count] = row;
      current = next[current];
      if (current < 0) {
        row++;
      }
      if (++count == targetRows) {
        scratch.handOn(matcher, count);
        count = 0;
      }
    }
    scratch.handOn(matcher, count);
  }

  /** After the last probe batch: emits the build rows of RIGHT, FULL, RIGHT_SEMI and RIGHT_ANTI. */
  void finish() {
    if (table != null) {
      table.reportProbedRows(matcher);
    }
    matcher.emitBuildRows(build.batches());
  }

  /** Releases the build rows, the table and the flags (not the shared output). Idempotent. */
  @Override
  @SuppressWarnings("try") // the table is named only to be closed with the others, also on failure
  public void close() {
    try (build;
        matcher;
        JoinHashTable t = table) {
      table = null;
    }
  }
}
