package dev.quiver.operators.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link WindowBuffers} with a spill space, batch by batch: rows come back in the order they came
 * (spilled files first, then memory), slices of one batch spill and release their own share, a
 * rewrite of a spilled window sees its rows in memory only, and nothing is left behind.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowBuffersSpillTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("end", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
  private static final long E1 = 1_000_000;
  private static final long E2 = 2_000_000;
  private static final long E3 = 3_000_000;

  /** Rows {@code ids}, row i in the window ending at {@code ends[i % ends.length]}. */
  private static VectorSchemaRoot batch(BufferAllocator a, long from, int rows, long... ends) {
    VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, a);
    BigIntVector id = (BigIntVector) batch.getVector(0);
    TimeStampMicroVector end = (TimeStampMicroVector) batch.getVector(1);
    id.allocateNew(rows); // exactly: what a batch reserves is its buffers' capacity
    end.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, from + i);
      end.setSafe(i, ends[i * ends.length / rows]); // contiguous runs: slices share buffers
    }
    batch.setRowCount(rows);
    return batch;
  }

  private static List<Long> ids(WindowBuffers.Window window, int side) {
    List<Long> ids = new ArrayList<>();
    for (VectorSchemaRoot next = window.next(side); next != null; next = window.next(side)) {
      try (VectorSchemaRoot batch = next) {
        BigIntVector id = (BigIntVector) batch.getVector(0);
        for (int i = 0; i < batch.getRowCount(); i++) {
          ids.add(id.get(i));
        }
      }
    }
    return ids;
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long i = from; i < to; i++) {
      ids.add(i);
    }
    return ids;
  }

  @Test
  void rowsComeBackInArrivalOrderFilesFirstThenMemory(BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("test task", 24 * 1024);
    MemorySpillSpace space = new MemorySpillSpace();
    try (WindowBuffers buffers = new WindowBuffers(budget, a, space, 1, "test")) {
      for (int b = 0; b < 40; b++) {
        buffers.add(0, batch(a, b * 100L, 100, E1, E2), 1, Long.MIN_VALUE);
      }
      assertThat(buffers.spills()).isPositive();
      assertThat(buffers.spilledRows(E1, 0) + buffers.rows(E1, 0)).isEqualTo(2000);
      try (WindowBuffers.Window first = buffers.pollUpTo(E1)) {
        List<Long> expected = new ArrayList<>();
        for (int b = 0; b < 40; b++) {
          expected.addAll(range(b * 100L, b * 100L + 50));
        }
        assertThat(ids(first, 0)).isEqualTo(expected);
      }
      try (WindowBuffers.Window second = buffers.pollUpTo(E2)) {
        List<Long> expected = new ArrayList<>();
        for (int b = 0; b < 40; b++) {
          expected.addAll(range(b * 100L + 50, b * 100L + 100));
        }
        assertThat(ids(second, 0)).isEqualTo(expected);
      }
      assertThat(space.maxOpenReaders()).as("one file read at a time").isEqualTo(1);
    }
    assertThat(budget.used()).isZero();
    assertThat(space.liveFiles()).isZero();
    assertThat(space.openReaders()).isZero();
  }

  /**
   * A batch split into slices of two windows (sharing its buffers), then a batch of an earlier
   * window the budget refuses: the later window's slice spills and releases its own share only.
   */
  @Test
  void aSpilledSliceReleasesItsOwnShareOfItsBatch(BufferAllocator a) {
    MemorySpillSpace space = new MemorySpillSpace();
    long slices;
    try (VectorSchemaRoot probe = batch(a, 0, 1000, E2, E3)) {
      slices = BatchTransfer.heldBytes(probe); // about what its two slices reserve
    }
    long splitter = 1000 * 2 * Integer.BYTES; // the splitter's per-row arrays
    MemoryBudget budget = new MemoryBudget("test task", slices + splitter + slices / 3);
    try (WindowBuffers buffers = new WindowBuffers(budget, a, space, 2, "test")) {
      buffers.add(1, batch(a, 0, 1000, E2, E3), 1, Long.MIN_VALUE);
      long shared = budget.used();
      assertThat(buffers.rows(E2, 1)).isEqualTo(500);
      buffers.add(0, batch(a, 5000, 1000, E1), 1, Long.MIN_VALUE);
      assertThat(buffers.spilledRows(E3, 1)).as("the window that ends last spilled").isEqualTo(500);
      assertThat(buffers.rows(E1, 0)).as("the refused batch is in memory").isEqualTo(1000);
      assertThat(budget.used()).isLessThan(shared + slices);
      try (WindowBuffers.Window first = buffers.pollUpTo(E1)) {
        assertThat(ids(first, 0)).isEqualTo(range(5000, 6000));
      }
      try (WindowBuffers.Window second = buffers.pollUpTo(E2)) {
        assertThat(ids(second, 1)).isEqualTo(range(0, 500));
      }
      try (WindowBuffers.Window third = buffers.pollUpTo(E3)) {
        assertThat(third.has(0)).isFalse();
        assertThat(ids(third, 1)).isEqualTo(range(500, 1000));
      }
    }
    assertThat(budget.used()).isZero();
    assertThat(space.liveFiles()).isZero();
  }

  @Test
  void aRewriteOfASpilledWindowSeesItsRowsInMemoryOnly(BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("test task", 16 * 1024);
    MemorySpillSpace space = new MemorySpillSpace();
    try (WindowBuffers buffers = new WindowBuffers(budget, a, space, 1, "test")) {
      int b = 0;
      while (buffers.spilledRows(E1, 0) == 0) {
        buffers.add(0, batch(a, b * 100L, 100, E1), 1, Long.MIN_VALUE);
        b++;
      }
      buffers.add(0, batch(a, b * 100L, 100, E1), 1, Long.MIN_VALUE); // after the files
      long spilled = buffers.spilledRows(E1, 0);
      int inMemory = buffers.rows(E1, 0);
      int[] seen = new int[1];
      buffers.rewrite(
          E1,
          0,
          batches -> {
            batches.forEach(batch -> seen[0] += batch.getRowCount());
            VectorSchemaRoot last = batches.get(batches.size() - 1);
            return List.of(Take.take(last, new int[] {0}, 1, a)); // its first row only
          });
      assertThat(seen[0]).isEqualTo(inMemory);
      assertThat(buffers.rows(E1, 0)).isEqualTo(1);
      assertThat(buffers.spilledRows(E1, 0)).isEqualTo(spilled);
      try (WindowBuffers.Window window = buffers.pollUpTo(E1)) {
        List<Long> expected = range(0, spilled); // the files: every row before the last batch
        expected.add(b * 100L); // the first row of the last batch, the rewrite's
        assertThat(ids(window, 0)).isEqualTo(expected);
      }
    }
    assertThat(budget.used()).isZero();
    assertThat(space.liveFiles()).isZero();
  }

  @Test
  void withoutASpillSpaceARefusedBatchIsTheBudgetsError(BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("test task", 8 * 1024);
    try (WindowBuffers buffers = new WindowBuffers(budget, a, SpillSpace.NONE, 1, "test")) {
      assertThatThrownBy(
              () -> {
                for (int b = 0; b < 40; b++) {
                  buffers.add(0, batch(a, b * 100L, 100, E1, E2), 1, Long.MIN_VALUE);
                }
              })
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED));
      assertThat(buffers.spills()).isZero();
    }
    assertThat(budget.used()).isZero();
  }
}
