package dev.quiver.operators.join;

import static dev.quiver.operators.join.IntervalJoinTesting.BUILD;
import static dev.quiver.operators.join.IntervalJoinTesting.PROBE;
import static dev.quiver.operators.join.IntervalJoinTesting.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.StateStreams;
import dev.quiver.operators.join.IntervalJoinTesting.Kind;
import dev.quiver.operators.join.IntervalJoinTesting.Recorder;
import dev.quiver.operators.join.IntervalJoinTesting.Shape;
import dev.quiver.operators.join.IntervalJoinTesting.Step;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Snapshot, close, restore into a new operator, go on: exactly the output rows (at the same steps)
 * and counters of the run that was never interrupted, with cuts where build batches are partly
 * joined, where one input has finished, and after both.
 */
@ExtendWith(ArrowLeakCheck.class)
class IntervalJoinSnapshotTest {
  private static final long MS = 1000;

  private static Shape shape(long seed) {
    return new Shape(seed, 150, 20, 4, 10 * MS, 2, 200 * MS, 0.05, 0.02);
  }

  @Test
  void restoredJoinContinuesExactlyAsTheUninterruptedRun(BufferAllocator allocator) {
    long[][] bounds = {{-200, 300}, {-500, -100}, {-10_000, 0}, {0, 0}};
    long seed = 1;
    for (long[] bound : bounds) {
      List<Step> steps = IntervalJoinTesting.stream(shape(seed++));
      int n = steps.size();
      int[] cuts = {1, n / 4, n / 2, n - 2};
      check(allocator, JoinType.INNER, steps, bound[0] * MS, bound[1] * MS, cuts);
      check(allocator, JoinType.INNER, steps, bound[0] * MS, bound[1] * MS, everyStep(n));
    }
  }

  /** The matched bits of the held probe rows survive: the same rows are padded after a restore. */
  @Test
  void restoredOuterJoinsPadTheSameRows(BufferAllocator allocator) {
    long[][] bounds = {{-200, 300}, {-500, -100}, {-10_000, 0}};
    long seed = 40;
    for (JoinType type : List.of(JoinType.LEFT, JoinType.RIGHT, JoinType.FULL)) {
      for (long[] bound : bounds) {
        List<Step> steps = IntervalJoinTesting.stream(shape(seed++));
        int n = steps.size();
        int[] cuts = {1, n / 4, n / 2, 3 * n / 4, n - 2};
        check(allocator, type, steps, bound[0] * MS, bound[1] * MS, cuts);
      }
      List<Step> steps = IntervalJoinTesting.stream(shape(seed++));
      check(allocator, type, steps, -200 * MS, 300 * MS, everyStep(steps.size()));
    }
  }

  /**
   * States of version 1 (before outer joins: no matched bits), 2 (an int64 length before each
   * stream) and 3 (the matched bits after the probe rows), as a savepoint of an earlier release
   * holds them, restore an INNER join.
   */
  @Test
  void statesOfVersionsOneToThreeRestoreAnInnerJoin(BufferAllocator allocator) throws IOException {
    for (int version = 1; version <= 3; version++) {
      List<Step> steps = IntervalJoinTesting.stream(shape(60));
      int cut = steps.size() / 2;
      OperatorContext context = IntervalJoinTesting.context(allocator, 100);
      Recorder whole = new Recorder(100);
      try (IntervalJoinOperator operator = operator(context, whole)) {
        IntervalJoinTesting.drive(operator, steps, 0, steps.size(), whole, allocator);
      }
      Recorder pieces = new Recorder(100);
      byte[] old;
      try (IntervalJoinOperator operator = operator(context, pieces)) {
        IntervalJoinTesting.drive(operator, steps, 0, cut, pieces, allocator);
        byte[] three = marksAfterRows(operator.snapshotState(), allocator);
        byte[] state = version == 3 ? three : withLengths(three, allocator);
        assertThat(operator.heldProbeBatches()).isPositive();
        // Version 1 is without the matched bits: a count, then an empty word count per held
        // probe batch.
        old =
            version == 1
                ? Arrays.copyOf(state, state.length - 4 - 4 * operator.heldProbeBatches())
                : state;
        old[0] = (byte) version;
      }
      try (IntervalJoinOperator operator = operator(context, pieces)) {
        operator.restoreState(old);
        IntervalJoinTesting.drive(operator, steps, cut, steps.size(), pieces, allocator);
      }
      assertThat(whole.rows).isPositive();
      assertThat(pieces.byStep).as("version %s", version).isEqualTo(whole.byStep);
      assertThat(context.budget().used()).isZero();
    }
  }

  /**
   * A state in the layout of version 3, which wrote the matched bits after the probe rows (this
   * finds where each part ends by reading it).
   */
  private static byte[] marksAfterRows(byte[] state, BufferAllocator allocator) throws IOException {
    int header = 1 + 5 * Long.BYTES + 1;
    int buildEnd = streamEnd(state, header, allocator);
    DataInputStream marks =
        new DataInputStream(new ByteArrayInputStream(state, buildEnd, state.length - buildEnd));
    int batches = marks.readInt();
    for (int b = 0; b < batches; b++) {
      marks.skipBytes(marks.readInt() * Long.BYTES);
    }
    int marksEnd = state.length - marks.available();
    int probeEnd = streamEnd(state, marksEnd, allocator);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(state, 0, buildEnd);
    out.write(state, marksEnd, probeEnd - marksEnd);
    out.write(state, buildEnd, marksEnd - buildEnd);
    byte[] three = out.toByteArray();
    three[0] = 3;
    return three;
  }

  /** Where the Arrow IPC stream that starts at {@code start} in {@code state} ends. */
  private static int streamEnd(byte[] state, int start, BufferAllocator allocator)
      throws IOException {
    ByteArrayInputStream in = new ByteArrayInputStream(state, start, state.length - start);
    try (ArrowStreamReader reader = new ArrowStreamReader(StateStreams.unclosable(in), allocator)) {
      while (reader.loadNextBatch()) {
        // to its end
      }
    }
    return state.length - in.available();
  }

  /**
   * A state of version 3 in the layout of versions 1 and 2, which wrote an int64 length before each
   * of the two IPC streams (this finds where each ends by reading it).
   */
  private static byte[] withLengths(byte[] state, BufferAllocator allocator) throws IOException {
    int header = 1 + 5 * Long.BYTES + 1;
    ByteArrayInputStream in = new ByteArrayInputStream(state, header, state.length - header);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(state, 0, header);
    int end = header;
    for (int stream = 0; stream < 2; stream++) {
      int start = state.length - in.available();
      try (ArrowStreamReader reader =
          new ArrowStreamReader(StateStreams.unclosable(in), allocator)) {
        while (reader.loadNextBatch()) {
          // to its end
        }
      }
      end = state.length - in.available();
      out.writeBytes(ByteBuffer.allocate(Long.BYTES).putLong(end - start).array());
      out.write(state, start, end - start);
    }
    out.write(state, end, state.length - end);
    return out.toByteArray();
  }

  /** A restored task may finish an input again that had finished before the snapshot. */
  @Test
  void finishingAnInputAgainAfterARestoreChangesNothing(BufferAllocator allocator) {
    List<Step> steps = IntervalJoinTesting.stream(shape(20));
    int firstFinish = 0;
    while (steps.get(firstFinish).kind() != Kind.FINISH) {
      firstFinish++;
    }
    OperatorContext context = IntervalJoinTesting.context(allocator, 100);
    Recorder whole = new Recorder(100);
    try (IntervalJoinOperator operator = operator(context, whole)) {
      IntervalJoinTesting.drive(operator, steps, 0, steps.size(), whole, allocator);
    }
    Recorder pieces = new Recorder(100);
    byte[] state;
    try (IntervalJoinOperator operator = operator(context, pieces)) {
      IntervalJoinTesting.drive(operator, steps, 0, firstFinish + 1, pieces, allocator);
      state = operator.snapshotState();
    }
    try (IntervalJoinOperator operator = operator(context, pieces)) {
      operator.restoreState(state);
      operator.finish(steps.get(firstFinish).input());
      IntervalJoinTesting.drive(operator, steps, firstFinish + 1, steps.size(), pieces, allocator);
    }
    assertThat(whole.rows).isPositive();
    assertThat(pieces.byStep).isEqualTo(whole.byStep);
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void restoreRefusesAnotherJoinsStateAndComesBeforeInput(BufferAllocator allocator) {
    OperatorContext context = IntervalJoinTesting.context(allocator, 100);
    List<Step> steps = IntervalJoinTesting.stream(shape(30));
    byte[] state;
    try (IntervalJoinOperator operator = operator(context, b -> b.close())) {
      IntervalJoinTesting.drive(operator, steps, 0, 20, new Recorder(100), allocator);
      state = operator.snapshotState();
      assertThat(state[0]).isEqualTo(IntervalJoinSnapshot.VERSION);
      assertThatThrownBy(() -> operator.restoreState(state))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before any input");
    }
    try (IntervalJoinOperator swapped =
        new IntervalJoinOperator(
            context,
            JoinKind.of(JoinType.INNER),
            PROBE,
            new int[] {1},
            BUILD,
            new int[] {0},
            () -> null,
            2,
            1,
            0,
            SECOND,
            b -> b.close())) {
      assertThatThrownBy(() -> swapped.restoreState(state))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot restore a join of rows");
    }
    byte[] future = state.clone();
    future[0] = 99;
    byte[] truncated = Arrays.copyOf(state, state.length - 20);
    for (byte[] bad : List.of(future, truncated, new byte[0])) {
      try (IntervalJoinOperator operator = operator(context, b -> b.close())) {
        assertThatThrownBy(() -> operator.restoreState(bad))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("interval join state");
      }
    }
    assertThat(context.budget().used()).isZero();
  }

  private static int[] everyStep(int steps) {
    int[] cuts = new int[steps - 1];
    for (int i = 0; i < cuts.length; i++) {
      cuts[i] = i + 1;
    }
    return cuts;
  }

  private static IntervalJoinOperator operator(
      OperatorContext context, dev.quiver.operators.BatchSink sink) {
    return IntervalJoinTesting.operator(
        context, -200 * MS, 300 * MS, IntervalJoinTesting.filter(-200 * MS, 300 * MS, false), sink);
  }

  /**
   * Runs {@code steps} once without interruption and once snapshotting and restoring into a new
   * operator before each step of {@code cuts}; both give the same rows at the same steps.
   */
  private static void check(
      BufferAllocator allocator,
      JoinType type,
      List<Step> steps,
      long lower,
      long upper,
      int[] cuts) {
    OperatorContext context = IntervalJoinTesting.context(allocator, 50);
    JoinFilter filter = IntervalJoinTesting.filter(lower, upper, false);
    Recorder whole = new Recorder(50);
    long late;
    long withoutTime;
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(context, type, lower, upper, filter, whole)) {
      IntervalJoinTesting.drive(operator, steps, 0, steps.size(), whole, allocator);
      late = operator.lateRows();
      withoutTime = operator.rowsWithoutTime();
    }
    Recorder pieces = new Recorder(50);
    byte[] state = null;
    int from = 0;
    for (int c = 0; c <= cuts.length; c++) {
      int to = c < cuts.length ? cuts[c] : steps.size();
      try (IntervalJoinOperator operator =
          IntervalJoinTesting.operator(context, type, lower, upper, filter, pieces)) {
        if (state != null) {
          operator.restoreState(state);
        }
        IntervalJoinTesting.drive(operator, steps, from, to, pieces, allocator);
        if (c < cuts.length) {
          state = operator.snapshotState();
          assertThat(operator.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
        } else {
          assertThat(operator.lateRows()).isEqualTo(late);
          assertThat(operator.rowsWithoutTime()).isEqualTo(withoutTime);
        }
      }
      assertThat(context.budget().used()).isZero();
      from = to;
    }
    assertThat(late).isPositive();
    assertThat(whole.rows).isPositive();
    assertThat(pieces.byStep).isEqualTo(whole.byStep);
  }
}
