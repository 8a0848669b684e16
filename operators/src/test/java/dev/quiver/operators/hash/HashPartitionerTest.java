package dev.quiver.operators.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(ArrowLeakCheck.class)
class HashPartitionerTest {
  private static final int[] KEYS = {9, 4, 7}; // utf8, int64, decimal(15, 2)

  @ParameterizedTest(name = "channels={0} rows={1} nullFraction={2} distinct={3}")
  @CsvSource({
    "1, 1000, 0.1, 0",
    "2, 1, 0, 0",
    "2, 1000, 0.1, 0",
    "8, 1000, 0, 0",
    "8, 1000, 0.1, 5",
    "8, 1000, 1.0, 0",
    "64, 1000, 0.1, 0",
    "64, 65536, 0.1, 50",
    "8, 65536, 0, 0"
  })
  void everyRowLandsInTheChannelOfItsHash(
      int channels, int rows, double nullFraction, int distinct, BufferAllocator a) {
    RandomBatches random = new RandomBatches(channels * 1000L + rows).nullFraction(nullFraction);
    if (distinct > 0) {
      random.distinctValues(distinct); // skewed: few keys, many rows each
    }
    try (VectorSchemaRoot batch = random.batch(RandomBatches.ALL_TYPES, rows, a)) {
      assertSplitIsCorrect(new HashPartitioner(KEYS, channels), batch, a);
    }
  }

  @ParameterizedTest(name = "start={0} length={1}")
  @CsvSource({"1, 999", "7, 64", "13, 1"})
  void slicedInput(int start, int length, BufferAllocator a) {
    try (VectorSchemaRoot batch =
            new RandomBatches(start).nullFraction(0.2).batch(RandomBatches.ALL_TYPES, 1000, a);
        VectorSchemaRoot slice = batch.slice(start, length)) {
      assertSplitIsCorrect(new HashPartitioner(KEYS, 8), slice, a);
    }
  }

  @Test
  void equalKeysMeetInOneChannelAcrossBatches(BufferAllocator a) {
    HashPartitioner partitioner = new HashPartitioner(new int[] {9, 1}, 8); // utf8, int8
    Map<List<Object>, Integer> channelOfKey = new HashMap<>();
    for (int seed = 0; seed < 4; seed++) {
      try (VectorSchemaRoot batch =
          new RandomBatches(seed)
              .nullFraction(0.2)
              .distinctValues(20)
              .batch(RandomBatches.ALL_TYPES, 500 + seed * 300, a)) {
        VectorSchemaRoot[] outputs = partitioner.split(batch, a);
        try {
          for (int channel = 0; channel < outputs.length; channel++) {
            if (outputs[channel] == null) {
              continue;
            }
            for (List<Object> row : BatchRows.rows(outputs[channel])) {
              Integer previous =
                  channelOfKey.putIfAbsent(List.of(key(row.get(9)), key(row.get(1))), channel);
              assertThat(previous == null ? channel : previous).isEqualTo(channel);
            }
          }
        } finally {
          closeAll(outputs);
        }
      }
    }
    assertThat(channelOfKey.size()).isGreaterThan(20);
  }

  @Test
  void distinctKeysSpreadEvenly(BufferAllocator a) {
    int rows = 100_000;
    Schema schema = new Schema(List.of(RandomBatches.field("k", new ArrowType.Int(64, true))));
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(schema, a)) {
      BigIntVector keys = (BigIntVector) batch.getVector(0);
      keys.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        keys.set(i, i); // dense sequential keys: the classic bad case for weak hashes
      }
      batch.setRowCount(rows);
      VectorSchemaRoot[] outputs = new HashPartitioner(new int[] {0}, 8).split(batch, a);
      try {
        for (VectorSchemaRoot output : outputs) {
          assertThat(output).isNotNull();
          assertThat(output.getRowCount()).isBetween(10_000, 15_000);
        }
      } finally {
        closeAll(outputs);
      }
    }
  }

  @Test
  void emptyBatchProducesNoBatches(BufferAllocator a) {
    try (VectorSchemaRoot batch = new RandomBatches(1).batch(RandomBatches.ALL_TYPES, 0, a)) {
      assertThat(new HashPartitioner(KEYS, 8).split(batch, a)).containsOnlyNulls();
      new HashPartitioner(KEYS, 8)
          .split(
              batch,
              a,
              (channel, out) -> {
                out.close();
                throw new AssertionError("no batch expected");
              });
    }
  }

  @Test
  void allNullKeysGoToOneChannel(BufferAllocator a) {
    try (VectorSchemaRoot batch =
        new RandomBatches(2).nullFraction(1.0).batch(RandomBatches.ALL_TYPES, 100, a)) {
      VectorSchemaRoot[] outputs = new HashPartitioner(KEYS, 64).split(batch, a);
      try {
        List<Integer> used = new ArrayList<>();
        for (int channel = 0; channel < outputs.length; channel++) {
          if (outputs[channel] != null) {
            used.add(channel);
            assertThat(outputs[channel].getRowCount()).isEqualTo(100);
          }
        }
        assertThat(used).hasSize(1);
      } finally {
        closeAll(outputs);
      }
    }
  }

  @Test
  void channelOfCoversTheWholeRange() {
    for (int channels : new int[] {1, 2, 8, 64, 1000}) {
      assertThat(HashPartitioner.channelOf(0L, channels)).isZero();
      assertThat(HashPartitioner.channelOf(-1L, channels)).isEqualTo(channels - 1);
      assertThat(HashPartitioner.channelOf(Long.MAX_VALUE, channels)).isEqualTo((channels - 1) / 2);
      assertThat(HashPartitioner.channelOf(Long.MIN_VALUE, channels)).isEqualTo(channels / 2);
    }
    // Only the high 32 bits count: the low bits are left to hash tables.
    assertThat(HashPartitioner.channelOf(0xFFFF_FFFFL, 64)).isZero();
    assertThat(HashPartitioner.channelOf(0x8000_0000_0000_0000L | 0xFFFF_FFFFL, 2)).isOne();
  }

  @Test
  void rejectsBadArguments(BufferAllocator a) {
    assertThatThrownBy(() -> new HashPartitioner(new int[0], 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HashPartitioner(new int[] {0}, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HashPartitioner(new int[] {-1}, 2))
        .isInstanceOf(IllegalArgumentException.class);
    try (VectorSchemaRoot batch = new RandomBatches(1).batch(RandomBatches.ALL_TYPES, 5, a)) {
      for (int channels : new int[] {1, 2}) {
        assertThatThrownBy(() -> new HashPartitioner(new int[] {12}, channels).split(batch, a))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("outside");
      }
    }
  }

  /**
   * Every input row is in exactly one output (as a multiset, in input order within a channel), each
   * output holds exactly the rows whose hash maps to its channel, and the input is left unchanged.
   */
  private static void assertSplitIsCorrect(
      HashPartitioner partitioner, VectorSchemaRoot batch, BufferAllocator a) {
    int channels = partitioner.channels();
    List<List<Object>> inputRows = BatchRows.rows(batch);
    long[] hashes = new long[batch.getRowCount()];
    VectorHasher.hash(batch, KEYS, hashes);
    List<List<List<Object>>> expected = new ArrayList<>();
    for (int channel = 0; channel < channels; channel++) {
      expected.add(new ArrayList<>());
    }
    for (int row = 0; row < inputRows.size(); row++) {
      expected.get(HashPartitioner.channelOf(hashes[row], channels)).add(inputRows.get(row));
    }

    VectorSchemaRoot[] outputs = partitioner.split(batch, a);
    try {
      assertThat(outputs).hasSize(channels);
      for (int channel = 0; channel < channels; channel++) {
        if (expected.get(channel).isEmpty()) {
          assertThat(outputs[channel]).as("channel %d", channel).isNull();
        } else {
          assertThat(outputs[channel].getSchema()).isEqualTo(batch.getSchema());
          assertThat(BatchRows.rows(outputs[channel]))
              .as("channel %d", channel)
              .isEqualTo(expected.get(channel));
        }
      }
    } finally {
      closeAll(outputs);
    }
    assertThat(BatchRows.rows(batch)).isEqualTo(inputRows);
  }

  /** A map key for a value: {@code List.of} rejects nulls. */
  private static Object key(Object value) {
    return value == null ? "<null>" : value;
  }

  private static void closeAll(VectorSchemaRoot[] batches) {
    for (VectorSchemaRoot batch : batches) {
      if (batch != null) {
        batch.close();
      }
    }
  }
}
