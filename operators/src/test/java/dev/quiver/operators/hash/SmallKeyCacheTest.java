package dev.quiver.operators.hash;

import static dev.quiver.operators.hash.GroupTableTest.strings;
import static dev.quiver.testing.RandomBatches.field;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The cache answers exactly as the table does, or not at all. */
@ExtendWith(ArrowLeakCheck.class)
class SmallKeyCacheTest {
  private static final Field UTF8 = field("s", new ArrowType.Utf8());
  private static final Field INT = field("i", new ArrowType.Int(32, true));

  @Test
  void hitsAreTheTablesGroupsAndLongOrNullKeysMiss(BufferAllocator allocator) {
    // Lengths 0..9 around the 7-byte limit, values that differ only in their last byte.
    List<String> pool = new ArrayList<>();
    for (int length = 0; length <= 9; length++) {
      for (char last : new char[] {'a', 'b'}) {
        pool.add(length == 0 ? "" : "x".repeat(length - 1) + last);
      }
    }
    Random random = new Random(7);
    try (GroupTable table =
        new GroupTable(List.of(UTF8, INT), allocator, MemoryBudget.unlimited("t"))) {
      SmallKeyCache cache = SmallKeyCache.forKeys(List.of(UTF8, INT));
      for (int batch = 0; batch < 30; batch++) {
        int rows = 1 + random.nextInt(500);
        boolean shortOnly = batch % 3 != 0;
        String[] texts = new String[rows];
        Integer[] ints = new Integer[rows];
        for (int i = 0; i < rows; i++) {
          String text = pool.get(random.nextInt(shortOnly ? 16 : pool.size()));
          texts[i] = !shortOnly && random.nextInt(20) == 0 ? null : text;
          ints[i] = random.nextInt(3) - 1; // -1, 0, 1: a negative value packs like any other
        }
        try (VarCharVector s = strings(allocator, texts);
            IntVector n = ints(allocator, ints)) {
          TransferPair pair = s.getTransferPair(allocator);
          pair.splitAndTransfer(0, rows); // data ends at the last value: no word past it
          try (FieldVector exact = (FieldVector) pair.getTo()) {
            List<FieldVector> keys = List.of(exact, n);
            int[] cached = new int[rows];
            boolean hit = cache.find(keys, rows, cached);
            long[] hashes = new long[rows];
            VectorHasher.hash(keys, rows, hashes);
            int[] ids = new int[rows];
            table.insert(keys, rows, hashes, ids);
            if (hit) {
              assertThat(cached).isEqualTo(ids);
            } else {
              cache.learn(rows, ids, table.groupCount());
            }
            if (!shortOnly) {
              assertThat(hit).as("batch %d has long or NULL keys", batch).isFalse();
            } else if (batch > 10) {
              assertThat(hit).as("batch %d: every short key was learned", batch).isTrue();
            }
          }
        }
      }
    }
  }

  @Test
  void turnsItselfOffBeyondItsGroups(BufferAllocator allocator) {
    try (GroupTable table = new GroupTable(List.of(INT), allocator, MemoryBudget.unlimited("t"))) {
      SmallKeyCache cache = SmallKeyCache.forKeys(List.of(INT));
      int rows = SmallKeyCache.MAX_GROUPS + 1;
      Integer[] values = new Integer[rows];
      for (int i = 0; i < rows; i++) {
        values[i] = i * 1000;
      }
      try (IntVector keys = ints(allocator, values)) {
        int[] ids = new int[rows];
        assertThat(cache.find(List.of(keys), rows, ids)).isFalse();
        long[] hashes = new long[rows];
        VectorHasher.hash(List.of(keys), rows, hashes);
        table.insert(List.of(keys), rows, hashes, ids);
        cache.learn(rows, ids, table.groupCount());
        assertThat(cache.isOff()).isTrue();
        assertThat(cache.find(List.of(keys), rows, ids)).isFalse();
      }
    }
  }

  @Test
  void onlyPackableKeyTypesGetACache() {
    assertThat(SmallKeyCache.forKeys(List.of())).isNull();
    assertThat(SmallKeyCache.forKeys(List.of(field("l", new ArrowType.Int(64, true))))).isNull();
    assertThat(SmallKeyCache.forKeys(List.of(field("b", new ArrowType.Bool())))).isNull();
    assertThat(SmallKeyCache.forKeys(List.of(UTF8, INT, UTF8, INT, UTF8))).isNull();
    assertThat(SmallKeyCache.forKeys(List.of(UTF8, INT))).isNotNull();
  }

  private static IntVector ints(BufferAllocator allocator, Integer[] values) {
    IntVector vector = new IntVector(INT, allocator);
    vector.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        vector.set(i, values[i]);
      }
    }
    vector.setValueCount(values.length);
    return vector;
  }
}
