package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.UpdatingAggregateOperatorTest.CALLS;
import static dev.quiver.operators.aggregate.UpdatingAggregateOperatorTest.context;
import static dev.quiver.operators.aggregate.UpdatingAggregateOperatorTest.input;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.UpdatingAggregateOperatorTest.Changelog;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Snapshot after some batches, close, restore into a new operator, feed the rest: exactly the
 * changelog of the run that was never interrupted, batch by batch and in the same order (a batch's
 * rows follow the order of its rows, not group ids, which a restore numbers anew).
 */
@ExtendWith(ArrowLeakCheck.class)
class UpdatingAggregateSnapshotTest {
  private static final int[][] KEY_SETS = {{3, 9}, {}, {7, 0}};

  @Test
  void restoredSingleContinuesExactlyAsTheUninterruptedRun(BufferAllocator allocator) {
    long seed = 70;
    for (int[] keys : KEY_SETS) {
      for (int target : new int[] {5, 8192}) {
        List<List<VectorSchemaRoot>> runs = new ArrayList<>();
        for (int run = 0; run < 4; run++) {
          runs.add(input(allocator, seed, keys));
        }
        check(allocator, SCHEMA, AggregateMode.SINGLE, keys, runs, target);
        seed++;
      }
    }
  }

  @Test
  void restoredFinalContinuesExactlyAsTheUninterruptedRun(BufferAllocator allocator) {
    long seed = 80;
    for (int[] keys : KEY_SETS) {
      Schema states =
          HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, keys, CALLS);
      List<List<VectorSchemaRoot>> runs = new ArrayList<>();
      for (int run = 0; run < 4; run++) {
        List<VectorSchemaRoot> partials = new ArrayList<>();
        try (UpdatingAggregateOperator partial =
            new UpdatingAggregateOperator(
                context(allocator, 30),
                SCHEMA,
                AggregateMode.PARTIAL,
                keys,
                CALLS,
                partials::add)) {
          for (VectorSchemaRoot batch : input(allocator, seed, keys)) {
            partial.add(0, batch);
            partial.flush();
          }
        }
        runs.add(partials);
      }
      check(allocator, states, AggregateMode.FINAL, keys, runs, 8192);
      seed++;
    }
  }

  /**
   * A state of version 2 without cold groups ({@code [2][flags][IPC stream][int32 -1]}) in the
   * layout of version 1: {@code [1][flags][int32 length][IPC stream]}.
   */
  private static byte[] versionOne(byte[] state) {
    int stream = state.length - 2 - Integer.BYTES;
    assertThat(ByteBuffer.wrap(state, state.length - Integer.BYTES, Integer.BYTES).getInt())
        .as("no cold groups")
        .isEqualTo(-1);
    ByteBuffer old = ByteBuffer.allocate(2 + Integer.BYTES + stream);
    old.put((byte) 1).put(state[1]).putInt(stream).put(state, 2, stream);
    return old.array();
  }

  /**
   * Four runs over the same input: {@code runs.get(0)} uninterrupted, the others cut after 0 steps,
   * half of them and all of them, snapshotted, and restored into a new operator for the rest.
   */
  private static void check(
      BufferAllocator allocator,
      Schema input,
      AggregateMode mode,
      int[] keys,
      List<List<VectorSchemaRoot>> runs,
      int target) {
    OperatorContext context = context(allocator, target);
    List<VectorSchemaRoot> whole = runs.get(0);
    int steps = whole.size();
    Changelog expected = new Changelog(target);
    List<List<String>> expectedSteps = new ArrayList<>();
    try (UpdatingAggregateOperator operator =
        new UpdatingAggregateOperator(context, input, mode, keys, CALLS, expected)) {
      for (VectorSchemaRoot batch : whole) {
        operator.add(0, batch);
        expectedSteps.add(expected.step(operator));
      }
    }
    assertThat(expectedSteps.get(steps - 1)).as("the last batch changes something").isNotEmpty();
    int[] cuts = {0, steps / 2, steps};
    for (int c = 0; c < cuts.length; c++) {
      List<VectorSchemaRoot> batches = runs.get(c + 1);
      int cut = cuts[c];
      byte[] state;
      try (UpdatingAggregateOperator first =
          new UpdatingAggregateOperator(context, input, mode, keys, CALLS, b -> b.close())) {
        for (VectorSchemaRoot batch : batches.subList(0, cut)) {
          first.add(0, batch);
        }
        first.flush();
        state = first.snapshotState();
      }
      assertThat(state[0]).isEqualTo(UpdatingSnapshot.VERSION);
      Changelog out = new Changelog(target);
      try (UpdatingAggregateOperator restored =
          new UpdatingAggregateOperator(context, input, mode, keys, CALLS, out)) {
        // The middle cut restores the state as version 1 wrote it, as a savepoint still holds it.
        restored.restoreState(c == 1 ? versionOne(state) : state);
        for (int s = cut; s < steps; s++) {
          restored.add(0, batches.get(s));
          assertThat(out.step(restored))
              .as("step %d after a restore at %d, keys %s", s, cut, Arrays.toString(keys))
              .isEqualTo(expectedSteps.get(s));
        }
        restored.finish(0);
        assertThat(out.step(restored)).isEmpty();
      }
    }
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void restoreComesFirstAndTakesOnlyItsOwnKindOfState(BufferAllocator allocator) {
    OperatorContext context = context(allocator, 8192);
    int[] keys = {3, 9};
    byte[] state;
    try (UpdatingAggregateOperator operator = single(context, keys)) {
      input(allocator, 90, keys).forEach(batch -> operator.add(0, batch));
      state = operator.snapshotState();
      assertThatThrownBy(() -> operator.restoreState(state))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before any input");
    }
    try (UpdatingAggregateOperator operator = single(context, keys)) {
      operator.restoreState(state);
      assertThatThrownBy(() -> operator.restoreState(state))
          .isInstanceOf(IllegalStateException.class);
    }
    try (UpdatingAggregateOperator other = single(context, new int[] {3})) {
      assertThatThrownBy(() -> other.restoreState(state))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot restore an aggregate of groups");
    }
    byte[] future = state.clone();
    future[0] = 99;
    byte[] truncated = Arrays.copyOf(state, state.length - 10);
    byte[] longer = Arrays.copyOf(state, state.length + 3);
    for (byte[] bad : List.of(future, truncated, longer, new byte[0])) {
      try (UpdatingAggregateOperator operator = single(context, keys)) {
        assertThatThrownBy(() -> operator.restoreState(bad))
            .isInstanceOf(IllegalArgumentException.class);
      }
    }
    try (UpdatingAggregateOperator partial =
        new UpdatingAggregateOperator(
            context, SCHEMA, AggregateMode.PARTIAL, keys, CALLS, b -> b.close())) {
      assertThatThrownBy(() -> partial.restoreState(state))
          .isInstanceOf(UnsupportedOperationException.class);
    }
    assertThat(context.budget().used()).isZero();
  }

  /** After finish the state holds no group; after a close without finish there is none. */
  @Test
  void aSnapshotAfterFinishHoldsNoGroups(BufferAllocator allocator) {
    OperatorContext context = context(allocator, 8192);
    int[] keys = {9};
    byte[] state;
    try (UpdatingAggregateOperator operator = single(context, keys)) {
      input(allocator, 91, keys).forEach(batch -> operator.add(0, batch));
      operator.finish(0);
      state = operator.snapshotState();
    }
    Changelog out = new Changelog(8192);
    try (UpdatingAggregateOperator operator =
        new UpdatingAggregateOperator(context, SCHEMA, AggregateMode.SINGLE, keys, CALLS, out)) {
      operator.restoreState(state);
      operator.finish(0);
    }
    assertThat(out.rows).isEmpty();
    UpdatingAggregateOperator closed = single(context, keys);
    closed.close();
    assertThatThrownBy(closed::snapshotState).isInstanceOf(IllegalStateException.class);
  }

  private static UpdatingAggregateOperator single(OperatorContext context, int[] keys) {
    return new UpdatingAggregateOperator(
        context, SCHEMA, AggregateMode.SINGLE, keys, CALLS, b -> b.close());
  }
}
