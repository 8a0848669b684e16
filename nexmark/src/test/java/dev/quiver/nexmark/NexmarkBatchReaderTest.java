package dev.quiver.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Arrow path equals the holder (row) path, batch by batch, and resumes at its position. */
class NexmarkBatchReaderTest {
  private static final NexmarkConfig CONFIG = NexmarkConfig.DEFAULT.withSeed(3);
  private final BufferAllocator allocator = new RootAllocator();

  @AfterEach
  void noLeak() {
    allocator.close(); // throws if a batch was not closed
  }

  @Test
  void batchesHoldTheGeneratorsEventsOfTheirKindInEventOrder() {
    for (EventKind kind : EventKind.values()) {
      for (int tasks = 1; tasks <= 3; tasks++) {
        List<String> fromBatches = new ArrayList<>();
        List<String> fromHolders = new ArrayList<>();
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        for (int task = 0; task < tasks; task++) {
          EventSplit split = new EventSplit(7_777, task, tasks, 100);
          NexmarkBatchReader reader =
              new NexmarkBatchReader(CONFIG, kind, split, 0, 333, allocator);
          long lastTime = Long.MIN_VALUE;
          for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
            try (VectorSchemaRoot batch = next) {
              assertThat(batch.getSchema()).isEqualTo(NexmarkSchemas.of(kind));
              assertThat(batch.getRowCount()).isBetween(1, 333);
              TimeStampMilliVector times =
                  (TimeStampMilliVector) batch.getVector(NexmarkSchemas.DATE_TIME);
              for (int row = 0; row < batch.getRowCount(); row++) {
                assertThat(times.get(row)).isGreaterThanOrEqualTo(lastTime);
                lastTime = times.get(row);
                fromBatches.add(row(batch, row));
              }
            }
          }
          assertThat(reader.finished()).isTrue();
          for (long n = split.first(); n != EventSplit.END; n = split.nextFrom(n + 1)) {
            if (generator.kind(n) == kind) {
              fromHolders.add(NexmarkGeneratorTest.event(generator, n));
            }
          }
        }
        assertThat(fromBatches).as("%s, %d tasks", kind, tasks).isEqualTo(fromHolders);
      }
    }
  }

  @Test
  void aReaderMadeAtAPositionContinuesWhereTheFirstStopped() {
    EventSplit split = new EventSplit(20_000, 1, 2, 1000);
    NexmarkBatchReader whole =
        new NexmarkBatchReader(CONFIG, EventKind.BID, split, 0, 500, allocator);
    List<String> all = rows(whole);
    NexmarkBatchReader first =
        new NexmarkBatchReader(CONFIG, EventKind.BID, split, 0, 500, allocator);
    List<String> resumed = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      try (VectorSchemaRoot batch = first.next()) {
        for (int row = 0; row < batch.getRowCount(); row++) {
          resumed.add(row(batch, row));
        }
      }
    }
    resumed.addAll(
        rows(
            new NexmarkBatchReader(
                CONFIG, EventKind.BID, split, first.position(), 500, allocator)));
    assertThat(resumed).isEqualTo(all);
    assertThat(all).hasSize(9_200); // 10,000 events of the split, 46 bids in 50
  }

  @Test
  void microsecondBatchesHoldTheSameInstants() {
    for (EventKind kind : EventKind.values()) {
      EventSplit split = new EventSplit(5_000, 0, 1, 500);
      List<String> millis = rows(new NexmarkBatchReader(CONFIG, kind, split, 0, 256, allocator));
      NexmarkBatchReader reader =
          new NexmarkBatchReader(CONFIG, kind, split, 0, 256, TimeUnit.MICROSECOND, allocator);
      List<String> micros = new ArrayList<>();
      for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
        try (VectorSchemaRoot batch = next) {
          assertThat(batch.getSchema()).isEqualTo(NexmarkSchemas.of(kind, TimeUnit.MICROSECOND));
          for (int row = 0; row < batch.getRowCount(); row++) {
            micros.add(row(batch, row));
          }
        }
      }
      assertThat(micros).as("%s", kind).isEqualTo(millis);
    }
  }

  private static List<String> rows(NexmarkBatchReader reader) {
    List<String> rows = new ArrayList<>();
    for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
      try (VectorSchemaRoot batch = next) {
        for (int row = 0; row < batch.getRowCount(); row++) {
          rows.add(row(batch, row));
        }
      }
    }
    return rows;
  }

  // The row in the holders' toString form: Kind[v1, v2, ...].
  private static String row(VectorSchemaRoot batch, int row) {
    List<String> values = new ArrayList<>();
    for (var vector : batch.getFieldVectors()) {
      if (vector instanceof BigIntVector v) {
        values.add(Long.toString(v.get(row)));
      } else if (vector instanceof TimeStampMilliVector v) {
        values.add(Long.toString(v.get(row)));
      } else if (vector instanceof TimeStampMicroVector v) {
        assertThat(v.get(row) % 1000).isZero();
        values.add(Long.toString(v.get(row) / 1000));
      } else {
        values.add(new String(((VarCharVector) vector).get(row), StandardCharsets.US_ASCII));
      }
    }
    String first = batch.getSchema().getFields().get(0).getName();
    String kind =
        first.equals("auction")
            ? "Bid"
            : batch.getSchema().getFields().size() == 8 ? "Person" : "Auction";
    return kind + "[" + String.join(", ", values) + "]";
  }
}
