package dev.quiver.benchmarks;

import dev.quiver.operators.hash.HashPartitioner;
import dev.quiver.operators.memory.Allocators;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The producer side of a Shuffle exchange: {@link HashPartitioner} splitting one 8,192-row {@link
 * ShuffleBatch} into per-channel batches (hash the key columns, group row indices by channel, take
 * every column per channel), with every output batch closed as a network writer would after
 * serializing it. The score is input rows per second, per key type and channel count: more channels
 * mean smaller output batches and more per-batch overhead.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Thread)
public class HashSplitBenchmark {
  static final int ROWS = 8_192;

  /** The key columns of the split. */
  public enum Key {
    INT64(ShuffleBatch.ORDERKEY),
    INT64_INT32(ShuffleBatch.ORDERKEY, ShuffleBatch.LINENUMBER),
    UTF8(ShuffleBatch.NAME);

    private final int[] columns;

    Key(int... columns) {
      this.columns = columns;
    }
  }

  @Param({"INT64", "INT64_INT32", "UTF8"})
  public Key key;

  @Param({"2", "8", "64"})
  public int channels;

  private BufferAllocator allocator;
  private VectorSchemaRoot batch;
  private HashPartitioner partitioner;
  private HashPartitioner.ChannelConsumer consumer;
  private int rowsOut;

  @Setup(Level.Trial)
  public void setUp() {
    allocator = Allocators.newChild("benchmark:hash-split");
    batch = ShuffleBatch.create(allocator, ROWS, 42);
    partitioner = new HashPartitioner(key.columns, channels);
    consumer =
        (channel, out) -> {
          rowsOut += out.getRowCount();
          out.close();
        };
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    batch.close();
    allocator.close();
  }

  /** Splits the batch once; returns the rows of all output batches (always {@link #ROWS}). */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public int split() {
    rowsOut = 0;
    partitioner.split(batch, allocator, consumer);
    return rowsOut;
  }
}
