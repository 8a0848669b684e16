package dev.quiver.state.spill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A SINGLE hash aggregate spilling its groups (and DISTINCT pairs) through real files: the same
 * groups and values as without a budget, and an empty disk after.
 */
@ExtendWith(ArrowLeakCheck.class)
class SpillingAggregateOnDiskTest {
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
          call(AggregateFunction.MAX, 11),
          new AggregateCall(
              AggregateFunction.COUNT_DISTINCT, 2, SCHEMA.getFields().get(2).getType(), true, "d"));

  @TempDir Path tmp;

  static Stream<SpillCompression> compressions() {
    return Stream.of(SpillCompression.NONE, SpillCompression.DEFAULT);
  }

  @ParameterizedTest
  @MethodSource("compressions")
  void aggregatesWithATinyBudget(SpillCompression compression, BufferAllocator allocator)
      throws IOException {
    Map<List<Object>, List<Object>> expected =
        aggregate(new OperatorContext(allocator, MemoryBudget.unlimited("in memory"), 1000), 9);

    List<Path> roots = List.of(Files.createDirectory(tmp.resolve("a")), tmp);
    MemoryBudget budget = new MemoryBudget("on disk", 256 * 1024);
    Map<List<Object>, List<Object>> actual;
    try (FileSpillSpace space = new FileSpillSpace(roots, "aggregate test", compression)) {
      actual = aggregate(new OperatorContext(allocator, budget, 1000, space), 9);
      assertThat(space.spilledFiles()).isGreaterThan(1);
      assertThat(space.spilledRows()).isGreaterThan(10_000);
      assertThat(space.liveFiles()).as("files deleted once merged").isZero();
    }
    assertThat(actual).hasSizeGreaterThan(20_000).isEqualTo(expected);
    assertThat(budget.used()).isZero();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).containsExactly(tmp.resolve("a"));
    }
  }

  /** Group key → values of a SINGLE aggregate over 40 batches of the seed's rows. */
  private static Map<List<Object>, List<Object>> aggregate(OperatorContext context, long seed) {
    Map<List<Object>, List<Object>> results = new HashMap<>();
    try (HashAggregateOperator operator =
        new HashAggregateOperator(
            context,
            SCHEMA,
            AggregateMode.SINGLE,
            KEYS,
            CALLS,
            batch -> {
              try (batch) {
                for (List<Object> row : BatchRows.rows(batch)) {
                  List<Object> key = new ArrayList<>(row.subList(0, KEYS.length));
                  List<Object> values = new ArrayList<>(row.subList(KEYS.length, row.size()));
                  assertThat(results.put(key, values)).as("group %s twice", key).isNull();
                }
              }
            })) {
      RandomBatches random = new RandomBatches(seed).distinctValues(200).nullFraction(0.05);
      for (int b = 0; b < 40; b++) {
        operator.add(0, random.batch(SCHEMA, 1000, context.allocator()));
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
