package dev.quiver.operators.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a spilling aggregate relies on: an insert the budget refuses changes nothing, {@code
 * truncate} forgets the newest groups, and the table goes on as if they had never been inserted;
 * {@code keys(ids)} gathers keys in any order.
 */
@ExtendWith(ArrowLeakCheck.class)
class GroupTableUndoTest {
  private static final int[][] KEY_SETS = {{0}, {1, 2}, {3, 9}, {5, 6}, {7, 8, 10, 11}, {9, 4, 0}};

  @Test
  void refusedInsertsAndTruncationLeaveAConsistentTable(BufferAllocator allocator) {
    int refusals = 0;
    for (int[] columns : KEY_SETS) {
      List<Field> fields = new ArrayList<>();
      for (int c : columns) {
        fields.add(RandomBatches.ALL_TYPES.getFields().get(c));
      }
      RandomBatches random = new RandomBatches(columns.length * 17L).distinctValues(3000);
      MemoryBudget budget = new MemoryBudget("undo", 16 << 20);
      Map<List<Object>, Integer> ids = new HashMap<>();
      try (GroupTable table = new GroupTable(fields, allocator, budget, "undo")) {
        for (int b = 0; b < 12; b++) {
          try (VectorSchemaRoot batch = random.batch(RandomBatches.ALL_TYPES, 1500, allocator)) {
            List<FieldVector> keys = keys(batch, columns);
            int before = table.groupCount();
            // Leave the table only a little room now and then: its insert is refused.
            long hog = b % 3 == 1 ? budget.limit() - budget.used() - 2000 : 0;
            budget.reserve(hog, "hog");
            try {
              check(table, keys, insert(table, keys), ids);
            } catch (QuiverException e) {
              assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED);
              assertThat(table.groupCount()).isEqualTo(before);
              refusals++;
            } finally {
              budget.release(hog);
            }
            if (b % 4 == 3) {
              table.truncate(before); // forget this batch's new groups...
              ids.values().removeIf(id -> id >= before);
              check(table, keys, insert(table, keys), ids); // ...and insert them again
            }
          }
          assertKeys(table, ids, allocator);
        }
      }
      assertThat(budget.used()).isZero();
    }
    // Boolean keys (two groups and NULL) never need to grow; every other key set does.
    assertThat(refusals).as("refused inserts").isGreaterThanOrEqualTo(KEY_SETS.length - 1);
  }

  private static List<FieldVector> keys(VectorSchemaRoot batch, int[] columns) {
    List<FieldVector> keys = new ArrayList<>();
    for (int c : columns) {
      keys.add(batch.getVector(c));
    }
    return keys;
  }

  private static int[] insert(GroupTable table, List<FieldVector> keys) {
    int rows = keys.get(0).getValueCount();
    long[] hashes = new long[rows];
    VectorHasher.hash(keys, rows, hashes);
    int[] ids = new int[rows];
    table.insert(keys, rows, hashes, ids);
    return ids;
  }

  /** Equal keys share an id, new keys get ids from the table's earlier count on. */
  private static void check(
      GroupTable table, List<FieldVector> keys, int[] ids, Map<List<Object>, Integer> known) {
    for (int row = 0; row < ids.length; row++) {
      List<Object> key = new ArrayList<>();
      for (FieldVector vector : keys) {
        key.add(BatchRows.value(vector, row));
      }
      assertThat(ids[row]).isBetween(0, table.groupCount() - 1);
      Integer id = known.putIfAbsent(key, ids[row]);
      assertThat(ids[row]).as("id of %s", key).isEqualTo(id == null ? ids[row] : id);
    }
    assertThat(table.groupCount()).isEqualTo(known.size());
    assertThat(known.values()).doesNotHaveDuplicates();
  }

  /** Every group's keys, gathered in a random order, are the keys it was made for. */
  private static void assertKeys(
      GroupTable table, Map<List<Object>, Integer> known, BufferAllocator allocator) {
    List<List<Object>> keyOf = new ArrayList<>(known.keySet());
    known.forEach((key, id) -> keyOf.set(id, key));
    int[] order = new int[keyOf.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Random random = new Random(order.length);
    for (int i = order.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    try (VectorSchemaRoot keys = table.keys(order, order.length, allocator)) {
      for (int i = 0; i < order.length; i++) {
        assertThat(BatchRows.row(keys, i)).isEqualTo(keyOf.get(order[i]));
      }
    }
    assertThatThrownBy(() -> table.keys(new int[] {order.length}, 1, allocator))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
