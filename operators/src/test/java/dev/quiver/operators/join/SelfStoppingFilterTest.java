package dev.quiver.operators.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.keyrange.BuildKeyRanges;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A runtime filter (a LEFT_SEMI join whose output the filtered join checks again) that finds it
 * passes nearly every probe row stops checking and passes the rest as they are; one that drops
 * enough rows keeps checking to the end.
 */
@ExtendWith(ArrowLeakCheck.class)
class SelfStoppingFilterTest {
  private static final Schema SCHEMA =
      new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true))));
  private static final int BATCH = 4096;
  private static final int BATCHES = 40; // 163,840 probe rows, more than STOP_AFTER_ROWS

  @Test
  void aFilterThatPassesNearlyEverythingStopsAndPassesTheRestUnchecked(BufferAllocator allocator) {
    // the probe's keys all match until row 100,000, then none does
    Run run = run(allocator, true, i -> i < 100_000 ? i % 1000 : 5000 + i);
    assertThat(run.join().stopped()).isTrue();
    assertThat(run.rows()).isEqualTo(BATCH * BATCHES);
  }

  @Test
  void aFilterThatDropsEnoughKeepsChecking(BufferAllocator allocator) {
    // one probe row in five matches
    Run run = run(allocator, true, i -> i % 5 == 0 ? i % 1000 : 2000 + i);
    assertThat(run.join().stopped()).isFalse();
    assertThat(run.rows()).isEqualTo(BATCH * BATCHES / 5);
  }

  @Test
  void aJoinThatIsNotAFilterNeverStops(BufferAllocator allocator) {
    Run run = run(allocator, false, i -> i < 100_000 ? i % 1000 : 5000 + i);
    assertThat(run.join().stopped()).isFalse();
    assertThat(run.rows()).isEqualTo(100_000);
  }

  @Test
  void onlyALeftSemiJoinCanStop(BufferAllocator allocator) {
    assertThatThrownBy(
            () ->
                new HashJoinOperator(
                    context(allocator),
                    JoinKind.of(JoinType.INNER),
                    SCHEMA,
                    new int[] {0},
                    SCHEMA,
                    new int[] {0},
                    null,
                    batch -> batch.close(),
                    BuildKeyRanges.none(),
                    true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LEFT_SEMI");
  }

  private record Run(HashJoinOperator join, int rows) {}

  /** A LEFT_SEMI join of probe keys {@code key(row)} with build keys 0..999, run to its end. */
  private static Run run(BufferAllocator allocator, boolean selfStopping, LongUnaryOperator key) {
    JoinHarness.Sink sink = new JoinHarness.Sink();
    HashJoinOperator join = filter(allocator, sink, selfStopping);
    JoinHarness.Output output =
        JoinHarness.run(
            join, List.of(batch(allocator, 0, 1000, i -> i)), probe(allocator, key), sink);
    return new Run(join, output.rows().size());
  }

  private static HashJoinOperator filter(
      BufferAllocator allocator, JoinHarness.Sink sink, boolean selfStopping) {
    return new HashJoinOperator(
        context(allocator),
        JoinKind.of(JoinType.LEFT_SEMI),
        SCHEMA,
        new int[] {0},
        SCHEMA,
        new int[] {0},
        null,
        sink,
        BuildKeyRanges.none(),
        selfStopping);
  }

  private static OperatorContext context(BufferAllocator allocator) {
    return new OperatorContext(allocator, MemoryBudget.unlimited("test"), BATCH);
  }

  private static List<VectorSchemaRoot> probe(BufferAllocator allocator, LongUnaryOperator key) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = 0; b < BATCHES; b++) {
      batches.add(batch(allocator, (long) b * BATCH, BATCH, key));
    }
    return batches;
  }

  private static VectorSchemaRoot batch(
      BufferAllocator allocator, long from, int rows, LongUnaryOperator key) {
    BigIntVector vector = new BigIntVector("k", allocator);
    vector.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      vector.set(i, key.applyAsLong(from + i));
    }
    vector.setValueCount(rows);
    return new VectorSchemaRoot(SCHEMA.getFields(), List.of(vector), rows);
  }
}
