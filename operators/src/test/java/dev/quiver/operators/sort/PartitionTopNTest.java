package dev.quiver.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.plan.window.WindowTopN;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What each ranking function keeps of one partition ordered by v DESC NULLS FIRST with ties, over
 * two batches, and of a NULL partition; ties keep the order the rows came in.
 */
@ExtendWith(ArrowLeakCheck.class)
class PartitionTopNTest {
  /** k VARCHAR (the partition), v INT (the order, DESC NULLS FIRST), id INT. */
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("k", ArrowType.Utf8.INSTANCE),
              Field.nullable("v", new ArrowType.Int(32, true)),
              Field.notNullable("id", new ArrowType.Int(32, true))));

  private static final List<SortKey> ORDER = List.of(SortKey.desc(1));

  /** Partition "a": v = 5, 4, null, 4, 5 | 3, 4, 2; partition NULL: v = 1, 1; "b": v = 7. */
  private static List<VectorSchemaRoot> batches(BufferAllocator a) {
    return List.of(
        batch(
            a,
            new String[] {"a", "a", "a", null, "a", "a"},
            new Integer[] {5, 4, null, 1, 4, 5},
            0),
        batch(a, new String[] {"a", "b", "a", null, "a"}, new Integer[] {3, 7, 4, 1, 2}, 10));
  }

  private static VectorSchemaRoot batch(BufferAllocator a, String[] k, Integer[] v, int firstId) {
    VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, a);
    VarCharVector keys = (VarCharVector) batch.getVector(0);
    IntVector values = (IntVector) batch.getVector(1);
    IntVector ids = (IntVector) batch.getVector(2);
    for (int i = 0; i < k.length; i++) {
      if (k[i] == null) {
        keys.setNull(i);
      } else {
        keys.setSafe(i, k[i].getBytes(StandardCharsets.UTF_8));
      }
      if (v[i] == null) {
        values.setNull(i);
      } else {
        values.setSafe(i, v[i]);
      }
      ids.setSafe(i, firstId + i);
    }
    batch.setRowCount(k.length);
    return batch;
  }

  /** The ids kept by {@code function} ≤ {@code n}, in the order they come out. */
  private static List<Object> kept(BufferAllocator a, WindowFunction function, long n) {
    List<VectorSchemaRoot> batches = batches(a);
    MemoryBudget budget = new MemoryBudget("top-n unit test", Long.MAX_VALUE);
    try {
      List<VectorSchemaRoot> out =
          new PartitionTopN(SCHEMA, List.of(0), ORDER, new WindowTopN(function, n))
              .prune(batches, a, budget, 3);
      if (out == null) {
        return null;
      }
      List<Object> ids = new ArrayList<>();
      try {
        for (VectorSchemaRoot batch : out) {
          assertThat(batch.getRowCount()).isBetween(1, 3);
          BatchRows.rows(batch).forEach(row -> ids.add(row.get(2)));
        }
      } finally {
        AutoCloseables.closeNoChecked(() -> AutoCloseables.close(out));
      }
      assertThat(budget.used()).isZero();
      assertThat(budget.peak()).isPositive();
      return ids;
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void rowNumberKeepsTheFirstNOfEachPartitionTiesInTheOrderTheyCame(BufferAllocator a) {
    // "a" in order: null(2), 5(0), 5(5), 4(1), 4(4), 4(12), 3(10), 2(14); "b": 7(11); NULL: 1, 1.
    assertThat(kept(a, WindowFunction.ROW_NUMBER, 3)).containsExactly(2, 0, 5, 11, 3, 13);
    assertThat(kept(a, WindowFunction.ROW_NUMBER, 1)).containsExactly(2, 11, 3);
  }

  @Test
  void rankKeepsEveryRowTiedWithTheNth(BufferAllocator a) {
    assertThat(kept(a, WindowFunction.RANK, 2)).containsExactly(2, 0, 5, 11, 3, 13);
    assertThat(kept(a, WindowFunction.RANK, 4)).containsExactly(2, 0, 5, 1, 4, 12, 11, 3, 13);
  }

  @Test
  void denseRankKeepsTheFirstNPeerGroups(BufferAllocator a) {
    assertThat(kept(a, WindowFunction.DENSE_RANK, 3)).containsExactly(2, 0, 5, 1, 4, 12, 11, 3, 13);
  }

  @Test
  void nothingToDropIsNull(BufferAllocator a) {
    assertThat(kept(a, WindowFunction.ROW_NUMBER, 11)).isNull();
    assertThat(kept(a, WindowFunction.DENSE_RANK, 5)).isNull();
  }
}
