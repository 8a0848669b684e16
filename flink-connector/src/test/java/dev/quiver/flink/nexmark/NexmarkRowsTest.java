package dev.quiver.flink.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkBatchReader;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkGenerator;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The row path (Flink SQL's rows) equals the Arrow path (Quiver's batches), event by event. */
@ExtendWith(ArrowLeakCheck.class)
class NexmarkRowsTest {
  private static final NexmarkConfig CONFIG = NexmarkConfig.DEFAULT.withSeed(11);

  @Test
  void rowsEqualBatchRowsForEveryKind(BufferAllocator allocator) {
    NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
    NexmarkRows rows = new NexmarkRows(generator);
    EventSplit split = new EventSplit(5_000, 0, 1, 1000);
    for (EventKind kind : EventKind.values()) {
      List<List<String>> fromRows = new ArrayList<>();
      for (long n = 0; n < 5_000; n++) {
        if (generator.kind(n) == kind) {
          fromRows.add(values((GenericRowData) rows.row(kind, n)));
        }
      }
      assertThat(fromRows)
          .hasSize(kind == EventKind.PERSON ? 100 : kind == EventKind.AUCTION ? 300 : 4600);
      NexmarkBatchReader reader = new NexmarkBatchReader(CONFIG, kind, split, 0, 512, allocator);
      assertThat(NexmarkBatches.rows(reader)).as("%s", kind).isEqualTo(fromRows);
    }
  }

  private static List<String> values(GenericRowData row) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < row.getArity(); i++) {
      Object value = row.getField(i);
      values.add(
          value instanceof TimestampData t ? Long.toString(t.getMillisecond()) : value.toString());
    }
    return values;
  }
}
