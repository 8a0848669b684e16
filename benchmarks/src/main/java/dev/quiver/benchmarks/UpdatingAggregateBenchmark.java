package dev.quiver.benchmarks;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.UpdatingAggregateOperator;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.state.spill.FileSpillSpace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What keeping a streaming GROUP BY's groups in RocksDB costs: an {@link UpdatingAggregateOperator}
 * (SINGLE, the changelog) over {@code rows} rows of (key int64, value int64), {@code count(*),
 * sum(value), max(value)} by key, keys uniform over {@code groups}; the changelog is dropped.
 *
 * <pre>
 *   MEMORY        an unlimited budget: every group in the hash table
 *   ROCKSDB       a budget of {@code budgetMiB}: the groups that do not fit move to the task's
 *                 RocksDB store (ColdGroups), and each batch reads back the cold groups it touches
 *                 with one multiGet
 * </pre>
 *
 * Score: milliseconds per invocation (all rows, single shot); rows/s = rows over it. {@link
 * Counters} adds the groups written to the store.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class UpdatingAggregateBenchmark {
  private static final int BATCH_ROWS = 8_192;
  private static final ArrowType BIGINT = new ArrowType.Int(64, true);
  private static final Schema SCHEMA =
      new Schema(List.of(Field.nullable("key", BIGINT), Field.nullable("value", BIGINT)));
  private static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.countStar("n"),
          AggregateCall.of(AggregateFunction.SUM, 1, BIGINT, "total"),
          AggregateCall.of(AggregateFunction.MAX, 1, BIGINT, "top"));

  /** Where the groups live. */
  public enum Store {
    MEMORY,
    ROCKSDB
  }

  @Param({"4000000"})
  public int rows;

  @Param({"1000000"})
  public int groups;

  @Param({"8"})
  public int budgetMiB;

  @Param({"MEMORY", "ROCKSDB"})
  public Store store;

  private BufferAllocator allocator;
  private List<VectorSchemaRoot> batches;
  private Path directory;

  /** Groups written to the RocksDB store in the invocation. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counters {
    public long storedGroups;

    @Setup(Level.Iteration)
    public void reset() {
      storedGroups = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    allocator = Allocators.newChild("updating aggregate benchmark");
    SplittableRandom random = new SplittableRandom(42);
    batches = new ArrayList<>();
    for (int from = 0; from < rows; from += BATCH_ROWS) {
      int n = Math.min(BATCH_ROWS, rows - from);
      VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator);
      BigIntVector key = (BigIntVector) batch.getVector(0);
      BigIntVector value = (BigIntVector) batch.getVector(1);
      key.allocateNew(n);
      value.allocateNew(n);
      for (int i = 0; i < n; i++) {
        key.set(i, random.nextInt(groups));
        value.set(i, random.nextInt(1_000_000));
      }
      key.setValueCount(n);
      value.setValueCount(n);
      batch.setRowCount(n);
      batches.add(batch);
    }
    directory = Files.createTempDirectory("quiver-updating-benchmark");
  }

  @Benchmark
  public long aggregate(Counters counters) {
    long[] changes = {0};
    MemoryBudget budget =
        store == Store.MEMORY
            ? MemoryBudget.unlimited("in memory")
            : new MemoryBudget("rocksdb", (long) budgetMiB << 20);
    try (FileSpillSpace space = new FileSpillSpace(List.of(directory), "benchmark")) {
      OperatorContext context =
          store == Store.MEMORY
              ? new OperatorContext(allocator, budget, BATCH_ROWS)
              : new OperatorContext(allocator, budget, BATCH_ROWS, space);
      try (UpdatingAggregateOperator operator =
          new UpdatingAggregateOperator(
              context,
              SCHEMA,
              AggregateMode.SINGLE,
              new int[] {0},
              CALLS,
              batch -> {
                changes[0] += batch.getRowCount();
                batch.close();
              })) {
        for (VectorSchemaRoot batch : batches) {
          operator.add(0, shared(batch));
          operator.flush();
        }
        operator.finish(0);
      }
      counters.storedGroups += space.spilledRows();
    }
    return changes[0];
  }

  /** The operator closes what it is given: a new root over the same buffers. */
  private VectorSchemaRoot shared(VectorSchemaRoot batch) {
    return BatchTransfer.share(batch, allocator);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    batches.forEach(VectorSchemaRoot::close);
    allocator.close();
    Files.deleteIfExists(directory);
  }
}
