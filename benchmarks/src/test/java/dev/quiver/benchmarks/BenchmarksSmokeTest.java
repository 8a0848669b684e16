package dev.quiver.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs every benchmark body once, without JMH, so the build catches a benchmark that no longer runs
 * or leaks; it measures nothing.
 */
@ExtendWith(ArrowLeakCheck.class)
class BenchmarksSmokeTest {

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void serializerBenchmarks(BatchCompression compression) throws IOException {
    SerializerBenchmark benchmark = new SerializerBenchmark();
    SerializerBenchmark.Batch batch = new SerializerBenchmark.Batch();
    SerializerBenchmark.Wire wire = new SerializerBenchmark.Wire();
    ByteCounters counters = new ByteCounters();
    wire.compression = compression;
    batch.rows = 1_024;
    batch.setUp();
    try {
      wire.setUp(batch);
      try {
        assertEquals(wire.length, benchmark.serialize(batch, wire, counters));
        assertEquals(batch.rows, benchmark.deserialize(batch, wire, counters));
        assertTrue(benchmark.memcpy(batch, counters) >= batch.arrowBytes);
        assertEquals(3 * batch.arrowBytes, counters.arrowBytes);
        try (BatchRecord decoded =
            wire.serializer.deserialize(
                new DataInputDeserializer(wire.bytes, 0, wire.length), wire.allocator)) {
          assertTrue(decoded.batch().equals(batch.root), "decoded batch differs");
        }
      } finally {
        wire.tearDown();
      }
    } finally {
      batch.tearDown();
    }
  }

  @ParameterizedTest
  @CsvSource({"INT64, 2", "INT64_INT32, 8", "UTF8, 64"})
  void hashSplitBenchmark(HashSplitBenchmark.Key key, int channels) {
    HashSplitBenchmark benchmark = new HashSplitBenchmark();
    benchmark.key = key;
    benchmark.channels = channels;
    benchmark.setUp();
    try {
      assertEquals(HashSplitBenchmark.ROWS, benchmark.split());
    } finally {
      benchmark.tearDown();
    }
  }
}
