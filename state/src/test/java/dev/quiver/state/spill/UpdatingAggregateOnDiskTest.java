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
import java.io.IOException;
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

  /** The changelog over 40 batches of 1,000 rows, applied: group key → values. */
  private static Map<List<Object>, List<Object>> aggregate(OperatorContext context) {
    Map<List<Object>, List<Object>> results = new HashMap<>();
    try (UpdatingAggregateOperator operator =
        new UpdatingAggregateOperator(
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
            })) {
      RandomBatches random = new RandomBatches(9).distinctValues(100).nullFraction(0.05);
      for (int b = 0; b < 40; b++) {
        operator.add(0, random.batch(SCHEMA, 1000, context.allocator()));
        operator.flush();
      }
      operator.finish(0);
    }
    return results;
  }

  private static AggregateCall call(AggregateFunction function, int column) {
    return AggregateCall.of(
        function, column, SCHEMA.getFields().get(column).getType(), function + "_" + column);
  }
}
