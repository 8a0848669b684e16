package dev.quiver.operators.join;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.JoinHarness.Output;
import dev.quiver.operators.join.JoinHarness.RowFilter;
import dev.quiver.operators.keyrange.BuildKeyRanges;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Runs a {@link HashJoinOperator} over given batches and checks it against {@link JoinReference}:
 * same rows in any order, every batch within the target size and of the declared schema, and the
 * budget back to zero after close.
 */
record HashJoinCheck(
    JoinKind kind,
    Schema build,
    int[] buildKeys,
    Schema probe,
    int[] probeKeys,
    RowFilter filter,
    int targetRows,
    long segmentRows) {

  HashJoinCheck(JoinKind kind, Schema build, int[] buildKeys, Schema probe, int[] probeKeys) {
    this(kind, build, buildKeys, probe, probeKeys, null, 64, HashJoinOperator.SEGMENT_ROWS);
  }

  HashJoinCheck withFilter(RowFilter newFilter) {
    return new HashJoinCheck(
        kind, build, buildKeys, probe, probeKeys, newFilter, targetRows, segmentRows);
  }

  HashJoinCheck withTarget(int rows) {
    return new HashJoinCheck(kind, build, buildKeys, probe, probeKeys, filter, rows, segmentRows);
  }

  HashJoinCheck withSegmentRows(long rows) {
    return new HashJoinCheck(kind, build, buildKeys, probe, probeKeys, filter, targetRows, rows);
  }

  /** Random batches of the given sizes from {@code random}, build side and probe side. */
  Output runRandom(BufferAllocator a, RandomBatches random, int[] buildSizes, int[] probeSizes) {
    return run(a, batches(random, build, buildSizes, a), batches(random, probe, probeSizes, a));
  }

  /** Joins the batches (taking ownership) and checks the output; returns it. */
  Output run(
      BufferAllocator a, List<VectorSchemaRoot> buildBatches, List<VectorSchemaRoot> probeBatches) {
    return run(
        new OperatorContext(a, MemoryBudget.unlimited("test"), targetRows),
        buildBatches,
        probeBatches);
  }

  /** As above in {@code context} (with its budget and spill space); returns the output. */
  Output run(
      OperatorContext context,
      List<VectorSchemaRoot> buildBatches,
      List<VectorSchemaRoot> probeBatches) {
    List<List<Object>> expected =
        JoinReference.join(
            kind,
            JoinHarness.rows(buildBatches),
            build.getFields().size(),
            buildKeys,
            JoinHarness.rows(probeBatches),
            probe.getFields().size(),
            probeKeys,
            filter == null ? null : filter.predicate());
    JoinHarness.Sink sink = new JoinHarness.Sink();
    HashJoinOperator join =
        new HashJoinOperator(
            context,
            kind,
            build,
            buildKeys,
            probe,
            probeKeys,
            filter,
            sink,
            BuildKeyRanges.none(),
            false,
            segmentRows);
    Schema schema = join.outputSchema();
    Output output = JoinHarness.run(join, buildBatches, probeBatches, sink);
    JoinHarness.assertSameRows(output.rows(), expected);
    assertThat(output.batchSizes()).allSatisfy(size -> assertThat(size).isBetween(1, targetRows));
    assertThat(output.schemas()).allSatisfy(s -> assertThat(s).isEqualTo(schema));
    assertThat(context.budget().used()).isZero();
    return output;
  }

  static List<VectorSchemaRoot> batches(
      RandomBatches random, Schema schema, int[] sizes, BufferAllocator a) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int size : sizes) {
      batches.add(random.batch(schema, size, a));
    }
    return batches;
  }
}
