package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.runtime.RowCountSink;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QuiverSession#count}: a query run into a counting sink inside its job counts the rows the
 * caller would have received, and its probe sees every batch and every task's end.
 */
@ExtendWith(ArrowLeakCheck.class)
class RowCountTest {
  private static final int FILES = 4;
  private static final int ROWS_PER_FILE = 5_000;
  // The probe runs in the MiniCluster's task threads of this JVM.
  private static final ConcurrentHashMap<String, LongAdder> SEEN = new ConcurrentHashMap<>();

  @TempDir static Path dir;
  private static Path orders;

  @BeforeAll
  static void writeOrders() throws Exception {
    orders = dir.resolve("orders");
    try (BufferAllocator allocator = Allocators.newChild("write orders")) {
      OrdersFiles.writeParquet(orders, FILES, ROWS_PER_FILE, allocator);
    }
  }

  @Test
  void countsTheRowsTheCallerWouldReceiveAndProbesEveryBatch() throws Exception {
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      String sql = "SELECT * FROM orders WHERE status <> 'X'";
      long expected;
      try (SqlResult result = session.sql(sql)) {
        expected = result.rows().size();
      }
      assertThat(expected).isEqualTo(FILES * ROWS_PER_FILE);
      RowCount counted =
          session.count(session.prepare(sql), new Counting("q"), Duration.ofMinutes(1));
      assertThat(counted.rows()).isEqualTo(expected);
      assertThat(SEEN.get("q.rows").sum()).isEqualTo(expected);
      assertThat(SEEN.get("q.ends").sum()).isEqualTo(2); // one per task of the final stage
      assertThat((Long) counted.job().getAccumulatorResult(RowCountSink.ROWS)).isEqualTo(expected);

      RowCount grouped =
          session.count(
              session.prepare("SELECT status, count(*) FROM orders GROUP BY status"),
              RowCountSink.Probe.none(),
              Duration.ofMinutes(1));
      assertThat(grouped.rows()).isEqualTo(3);
      assertThat(session.openQueries()).isZero();
    }
  }

  private record Counting(String name) implements RowCountSink.Probe {
    private static final long serialVersionUID = 1L;

    @Override
    public void batch(VectorSchemaRoot batch) {
      SEEN.computeIfAbsent(name + ".rows", k -> new LongAdder()).add(batch.getRowCount());
    }

    @Override
    public void endOfInput() {
      SEEN.computeIfAbsent(name + ".ends", k -> new LongAdder()).increment();
    }
  }
}
