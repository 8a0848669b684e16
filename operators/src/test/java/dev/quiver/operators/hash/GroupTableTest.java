package dev.quiver.operators.hash;

import static dev.quiver.testing.RandomBatches.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class GroupTableTest {
  private static final Field INT = field("k", new ArrowType.Int(32, true));
  private static final Field UTF8 = field("s", ArrowType.Utf8.INSTANCE);

  @Test
  void insertsAndFindsAllTypesAgainstReference(BufferAllocator allocator) {
    List<Field> fields = RandomBatches.ALL_TYPES.getFields();
    for (int[] columns : new int[][] {{0}, {1, 2}, {3, 9}, {5, 6}, {7, 8, 10, 11}, {9, 4, 0}}) {
      List<Field> keyFields = new ArrayList<>();
      for (int c : columns) {
        keyFields.add(fields.get(c));
      }
      RandomBatches random = new RandomBatches(columns.length * 31L).distinctValues(40);
      MemoryBudget budget = MemoryBudget.unlimited("test");
      try (GroupTable table = new GroupTable(keyFields, allocator, budget)) {
        Reference reference = new Reference();
        for (int batch = 0; batch < 5; batch++) {
          try (VectorSchemaRoot root = random.batch(RandomBatches.ALL_TYPES, 2000, allocator)) {
            List<FieldVector> keys = new ArrayList<>();
            for (int c : columns) {
              keys.add(root.getVector(c));
            }
            int[] ids = insert(table, keys, 2000);
            reference.check(keys, ids, table.groupCount());
            assertThat(find(table, keys, 2000)).isEqualTo(ids);
          }
        }
        assertThat(table.groupCount()).isEqualTo(reference.groups.size());
        assertKeysOutput(table, reference, allocator);
      }
      assertThat(budget.used()).isZero();
    }
  }

  @Test
  void nullsFormOneGroupAndFindMissesGiveMinusOne(BufferAllocator allocator) {
    try (GroupTable table = new GroupTable(List.of(INT, UTF8), allocator, unlimited());
        IntVector ints = ints(allocator, 1, null, 1, null, 2, null);
        VarCharVector strings = strings(allocator, "a", null, "a", null, null, "a")) {
      List<FieldVector> keys = List.of(ints, strings);
      int[] ids = insert(table, keys, 6);
      assertThat(ids[0]).isEqualTo(ids[2]);
      assertThat(ids[1]).isEqualTo(ids[3]);
      assertThat(new int[] {ids[0], ids[1], ids[4], ids[5]}).doesNotHaveDuplicates();
      assertThat(table.groupCount()).isEqualTo(4);
      try (IntVector probeInts = ints(allocator, null, 1, 3, 2);
          VarCharVector probeStrings = strings(allocator, null, null, "a", "a")) {
        assertThat(find(table, List.of(probeInts, probeStrings), 4))
            .containsExactly(ids[1], -1, -1, -1);
      }
    }
  }

  @Test
  void resizesToHundredThousandGroups(BufferAllocator allocator) {
    MemoryBudget budget = MemoryBudget.unlimited("test");
    try (GroupTable table = new GroupTable(List.of(INT), allocator, budget)) {
      Reference reference = new Reference();
      long before = table.retainedBytes();
      for (int start = 0; start < 100_000; start += 10_000) {
        Integer[] values = new Integer[20_000];
        for (int i = 0; i < values.length; i++) {
          values[i] = (start + i / 2) * 7919; // each key twice per batch
        }
        try (IntVector keys = ints(allocator, values)) {
          int[] ids = insert(table, List.of(keys), values.length);
          reference.check(List.of(keys), ids, table.groupCount());
          for (int i = 0; i < values.length; i += 2) {
            // a batch's new keys get ids above all earlier ones
            assertThat(ids[i]).isEqualTo(ids[i + 1]).isGreaterThanOrEqualTo(start);
          }
        }
      }
      assertThat(table.groupCount()).isEqualTo(100_000);
      assertThat(table.retainedBytes()).isGreaterThan(before).isEqualTo(budget.used());
      assertKeysOutput(table, reference, allocator);
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void stringsWithSharedPrefixesStayApart(BufferAllocator allocator) {
    String prefix = "a-long-common-prefix-that-spans-several-words-";
    String[] values = new String[3000];
    for (int i = 0; i < values.length; i++) {
      int n = i % 1000;
      values[i] = n == 999 ? "" : prefix + n + (n % 3 == 0 ? "" : "x".repeat(n % 17));
    }
    values[7] = null;
    try (GroupTable table = new GroupTable(List.of(UTF8), allocator, unlimited());
        VarCharVector keys = strings(allocator, values)) {
      int[] ids = insert(table, List.of(keys), values.length);
      new Reference().check(List.of(keys), ids, table.groupCount());
      assertThat(table.groupCount()).isEqualTo(1001); // 1000 strings and NULL
      try (VectorSchemaRoot out = table.keys(0, table.groupCount(), allocator)) {
        for (int i = 0; i < values.length; i++) {
          assertThat(BatchRows.value(out.getVector(0), ids[i])).isEqualTo(values[i]);
        }
      }
    }
  }

  @Test
  void presizedTableHoldsItsGroupsWithoutGrowingSlots(BufferAllocator allocator) {
    MemoryBudget budget = MemoryBudget.unlimited("test");
    try (GroupTable table = new GroupTable(List.of(INT), allocator, budget)) {
      long initial = table.retainedBytes();
      table.ensureCapacity(100); // the initial 1024 slots hold it already
      assertThat(table.retainedBytes()).isEqualTo(initial);
      table.ensureCapacity(4096); // a power of two: the table must not double at the last one
      long presized = table.retainedBytes();
      assertThat(presized).isGreaterThan(initial).isEqualTo(budget.used());
      table.ensureCapacity(4096);
      table.ensureCapacity(10);
      assertThat(table.retainedBytes()).isEqualTo(presized);
      Reference reference = new Reference();
      try (IntVector keys = ints(allocator, sequence(4096))) {
        int[] ids = insert(table, List.of(keys), 4096);
        reference.check(List.of(keys), ids, table.groupCount());
        assertThat(find(table, List.of(keys), 4096)).isEqualTo(ids);
      }
      assertThat(table.groupCount()).isEqualTo(4096);
      // Only the key column and the probe scratch grew: 4096 * (4 + 29) bytes < 256 KiB.
      assertThat(table.retainedBytes() - presized).isLessThan(256 * 1024);
      assertKeysOutput(table, reference, allocator);
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void shortStringsDifferingInTheirLastByteStayApart(BufferAllocator allocator) {
    // Keys of up to 8 bytes compare inline, longer ones through Arrow: lengths 0..10 around it.
    List<String> values = new ArrayList<>();
    for (int length = 0; length <= 10; length++) {
      for (char last : new char[] {'a', 'b', 'é'}) {
        values.add(length == 0 ? "" : "x".repeat(length - 1) + last);
      }
    }
    List<String> twice = new ArrayList<>(values);
    twice.addAll(values);
    try (GroupTable table = new GroupTable(List.of(UTF8), allocator, unlimited());
        VarCharVector keys = strings(allocator, twice.toArray(new String[0]))) {
      int[] ids = insert(table, List.of(keys), twice.size());
      new Reference().check(List.of(keys), ids, table.groupCount());
      assertThat(table.groupCount()).isEqualTo(31); // 3 per length 1..10, one empty string
      assertThat(find(table, List.of(keys), twice.size())).isEqualTo(ids);
    }
  }

  @Test
  void shortKeysAtTheEndOfTheirBuffersCompareOnlyTheirBytes(BufferAllocator allocator) {
    // Values end at the data buffer's last bytes, where a whole word cannot be read; a key
    // followed by garbage bytes must still equal the same key elsewhere.
    try (GroupTable table = new GroupTable(List.of(UTF8), allocator, unlimited());
        VarCharVector first = strings(allocator, "ab", "abc", "", "b", "zz", "ab");
        VarCharVector again = strings(allocator, "abc", "", "b", "ab", "zz", "zzz")) {
      for (VarCharVector keys : List.of(first, again)) {
        int end = keys.getOffsetBuffer().getInt((long) keys.getValueCount() * 4);
        keys.getDataBuffer().setBytes(end, new byte[] {'c', 'c', 'c', 'c', 'c', 'c', 'c', 'c'});
      }
      int[] ids = insert(table, List.of(first), first.getValueCount());
      assertThat(ids).containsExactly(0, 1, 2, 3, 4, 0);
      TransferPair pair = again.getTransferPair(allocator);
      pair.splitAndTransfer(0, again.getValueCount()); // data buffer ends at the last value
      try (FieldVector exact = (FieldVector) pair.getTo()) {
        assertThat(exact.getDataBuffer().capacity())
            .isEqualTo(exact.getOffsetBuffer().getInt((long) exact.getValueCount() * 4));
        int[] idsAgain = insert(table, List.of(exact), exact.getValueCount());
        assertThat(idsAgain).containsExactly(1, 2, 3, 0, 4, 5);
      }
    }
  }

  @Test
  void withoutKeysEveryRowIsGroupZero(BufferAllocator allocator) {
    try (GroupTable table = new GroupTable(List.of(), allocator, unlimited())) {
      long[] hashes = new long[5];
      VectorHasher.hash(List.of(), 5, hashes);
      int[] ids = new int[5];
      table.insert(List.of(), 5, hashes, ids);
      assertThat(ids).containsOnly(0);
      assertThat(table.groupCount()).isEqualTo(1);
      try (VectorSchemaRoot keys = table.keys(0, 1, allocator)) {
        assertThat(keys.getRowCount()).isEqualTo(1);
      }
    }
  }

  @Test
  void retainedBytesCoverTheAllocatedKeys(BufferAllocator allocator) {
    MemoryBudget budget = MemoryBudget.unlimited("test");
    try (BufferAllocator child = allocator.newChildAllocator("table", 0, Long.MAX_VALUE);
        GroupTable table = new GroupTable(List.of(UTF8), child, budget)) {
      String[] values = new String[5000];
      for (int i = 0; i < values.length; i++) {
        values[i] = "value-" + i;
      }
      try (VarCharVector keys = strings(allocator, values)) {
        insert(table, List.of(keys), values.length);
      }
      assertThat(child.getAllocatedMemory()).isPositive();
      assertThat(table.retainedBytes())
          .isGreaterThan(child.getAllocatedMemory() + 5000L * 8)
          .isEqualTo(budget.used());
    }
  }

  @Test
  void tinyBudgetFailsWithoutLeaks(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("task-7", 100_000);
    try (GroupTable table = new GroupTable(List.of(INT), allocator, budget, "GroupTableTest");
        IntVector keys = ints(allocator, sequence(50_000))) {
      assertThatThrownBy(() -> insert(table, List.of(keys), 50_000))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("GroupTableTest")
          .satisfies(
              e ->
                  assertThat(((QuiverException) e).code())
                      .isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED));
    }
    assertThat(budget.used()).isZero();
  }

  private static Integer[] sequence(int n) {
    Integer[] values = new Integer[n];
    for (int i = 0; i < n; i++) {
      values[i] = i;
    }
    return values;
  }

  private static int[] insert(GroupTable table, List<FieldVector> keys, int rows) {
    long[] hashes = new long[rows];
    VectorHasher.hash(keys, rows, hashes);
    int[] ids = new int[rows];
    table.insert(keys, rows, hashes, ids);
    return ids;
  }

  private static int[] find(GroupTable table, List<FieldVector> keys, int rows) {
    long[] hashes = new long[rows];
    VectorHasher.hash(keys, rows, hashes);
    int[] ids = new int[rows];
    table.find(keys, rows, hashes, ids);
    return ids;
  }

  private static void assertKeysOutput(
      GroupTable table, Reference reference, BufferAllocator allocator) {
    int groups = table.groupCount();
    for (int from = 0; from < groups; from += 100) {
      int count = Math.min(100, groups - from);
      try (VectorSchemaRoot keys = table.keys(from, count, allocator)) {
        for (int i = 0; i < count; i++) {
          assertThat(BatchRows.row(keys, i)).isEqualTo(reference.keyOf.get(from + i));
        }
      }
    }
  }

  /** Boxed keys: checks that equal keys share an id and different keys get different ids. */
  private static final class Reference {
    final Map<List<Object>, Integer> groups = new HashMap<>();
    final Map<Integer, List<Object>> keyOf = new HashMap<>();

    void check(List<FieldVector> keys, int[] ids, int groupCount) {
      for (int row = 0; row < ids.length; row++) {
        List<Object> key = new ArrayList<>();
        for (FieldVector vector : keys) {
          key.add(BatchRows.value(vector, row));
        }
        assertThat(ids[row]).isBetween(0, groupCount - 1);
        Integer known = groups.putIfAbsent(key, ids[row]);
        if (known != null) {
          assertThat(ids[row]).as("id of %s", key).isEqualTo(known);
        } else {
          assertThat(keyOf.put(ids[row], key)).as("id %d reused for %s", ids[row], key).isNull();
        }
      }
    }
  }

  private static MemoryBudget unlimited() {
    return MemoryBudget.unlimited("test");
  }

  static IntVector ints(BufferAllocator allocator, Integer... values) {
    IntVector vector = new IntVector(INT, allocator);
    vector.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        vector.setNull(i);
      } else {
        vector.set(i, values[i]);
      }
    }
    vector.setValueCount(values.length);
    return vector;
  }

  static VarCharVector strings(BufferAllocator allocator, String... values) {
    VarCharVector vector = new VarCharVector(UTF8, allocator);
    vector.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        vector.setNull(i);
      } else {
        vector.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
      }
    }
    vector.setValueCount(values.length);
    return vector;
  }
}
