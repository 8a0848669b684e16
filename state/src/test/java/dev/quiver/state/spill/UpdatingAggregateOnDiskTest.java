package dev.quiver.state.spill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.UpdatingAggregateOperator;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.changelog.RowKind;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An updating aggregate (a streaming GROUP BY's changelog) whose groups outgrow a tiny budget keeps
 * them in a real RocksDB spill store: its changelog, applied in order, ends at the same groups and
 * values as with every group in memory, and the store's directory is gone after.
 */
@ExtendWith(ArrowLeakCheck.class)
class UpdatingAggregateOnDiskTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  private static final int[] KEYS = {3, 9}; // i32, utf8
  private static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.countStar("n"),
          call(AggregateFunction.COUNT, 10),
          call(AggregateFunction.SUM, 7),
          call(AggregateFunction.AVG, 7), // decimal: exact
          call(AggregateFunction.AVG, 4),
          call(AggregateFunction.MIN, 9),
          call(AggregateFunction.MAX, 11));

  @TempDir Path tmp;

  @Test
  void keepsTheGroupsThatDoNotFitInRocksDb(BufferAllocator allocator) throws IOException {
    Map<List<Object>, List<Object>> expected =
        aggregate(new OperatorContext(allocator, MemoryBudget.unlimited("in memory"), 1000));
    MemoryBudget budget = new MemoryBudget("on disk", 256 * 1024);
    Map<List<Object>, List<Object>> actual;
    try (FileSpillSpace space = new FileSpillSpace(List.of(tmp), "updating aggregate test")) {
      actual = aggregate(new OperatorContext(allocator, budget, 1000, space));
      assertThat(space.spilledFiles()).as("stores opened").isOne();
      assertThat(space.spilledRows()).as("groups written to the store").isGreaterThan(10_000);
      assertThat(space.liveFiles()).as("the store is closed with its operator").isZero();
    }
    assertThat(actual).hasSizeGreaterThan(5_000).isEqualTo(expected);
    assertThat(budget.used()).isZero();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).isEmpty();
    }
  }

  /**
   * The same, snapshotted half way to a file and restored into a new operator over a new store: the
   * snapshot streams the store's entries to the file as RocksDB iterates them, and the restore puts
   * them into the new store; the changelog ends where the uninterrupted one does.
   */
  @Test
  void aSnapshotStreamsTheStoreToAFileAndRestoresIntoANewStore(BufferAllocator allocator)
      throws IOException {
    Map<List<Object>, List<Object>> expected =
        aggregate(new OperatorContext(allocator, MemoryBudget.unlimited("in memory"), 1000));
    MemoryBudget budget = new MemoryBudget("on disk", 256 * 1024);
    Map<List<Object>, List<Object>> actual = new HashMap<>();
    RandomBatches random = random();
    Path state = Files.createDirectories(tmp.resolve("checkpoint")).resolve("state");
    Path spills = Files.createDirectories(tmp.resolve("spills"));
    long stored;
    try (FileSpillSpace space = new FileSpillSpace(List.of(spills), "before the snapshot")) {
      OperatorContext context = new OperatorContext(allocator, budget, 1000, space);
      try (UpdatingAggregateOperator operator = operator(context, actual);
          OutputStream out = new BufferedOutputStream(Files.newOutputStream(state))) {
        feed(operator, random, context, 0, 20);
        stored = space.spilledRows();
        assertThat(stored).as("groups written to the store").isGreaterThan(5_000);
        operator.snapshotState(out);
      }
    }
    assertThat(Files.size(state)).isPositive();
    try (FileSpillSpace space = new FileSpillSpace(List.of(spills), "after the restore")) {
      OperatorContext context = new OperatorContext(allocator, budget, 1000, space);
      try (UpdatingAggregateOperator operator = operator(context, actual);
          InputStream in = new BufferedInputStream(Files.newInputStream(state))) {
        operator.restoreState(in);
        assertThat(space.spilledFiles()).as("the restore opened a store").isOne();
        feed(operator, random, context, 20, 40);
        operator.finish(0);
      }
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(budget.used()).isZero();
    try (Stream<Path> left = Files.list(spills)) {
      assertThat(left).isEmpty();
    }
  }

  /** The changelog over 40 batches of 1,000 rows, applied: group key → values. */
  private static Map<List<Object>, List<Object>> aggregate(OperatorContext context) {
    Map<List<Object>, List<Object>> results = new HashMap<>();
    try (UpdatingAggregateOperator operator = operator(context, results)) {
      feed(operator, random(), context, 0, 40);
      operator.finish(0);
    }
    return results;
  }

  private static RandomBatches random() {
    return new RandomBatches(9).distinctValues(100).nullFraction(0.05);
  }

  private static void feed(
      UpdatingAggregateOperator operator,
      RandomBatches random,
      OperatorContext context,
      int from,
      int to) {
    for (int b = from; b < to; b++) {
      operator.add(0, random.batch(SCHEMA, 1000, context.allocator()));
      operator.flush();
    }
  }

  /** A SINGLE aggregate whose changelog, applied, goes into {@code results}. */
  private static UpdatingAggregateOperator operator(
      OperatorContext context, Map<List<Object>, List<Object>> results) {
    return new UpdatingAggregateOperator(
        context,
        SCHEMA,
        AggregateMode.SINGLE,
        KEYS,
        CALLS,
        batch -> {
          try (batch) {
            for (List<Object> row : BatchRows.rows(batch)) {
              RowKind kind = RowKind.ofCode((Byte) row.get(row.size() - 1));
              List<Object> key = new ArrayList<>(row.subList(0, KEYS.length));
              List<Object> values = new ArrayList<>(row.subList(KEYS.length, row.size() - 1));
              switch (kind) {
                case INSERT ->
                    assertThat(results.put(key, values)).as("+I of %s twice", key).isNull();
                case UPDATE_BEFORE ->
                    assertThat(results.remove(key)).as("-U of %s", key).isEqualTo(values);
                case UPDATE_AFTER ->
                    assertThat(results.put(key, values)).as("+U of %s after -U", key).isNull();
                default -> throw new AssertionError("unexpected " + row);
              }
            }
          }
        });
  }

  private static AggregateCall call(AggregateFunction function, int column) {
    return AggregateCall.of(
        function, column, SCHEMA.getFields().get(column).getType(), function + "_" + column);
  }
}
