package dev.quiver.operators.join;

import static dev.quiver.operators.join.WindowJoinTesting.BUILD;
import static dev.quiver.operators.join.WindowJoinTesting.PROBE;
import static dev.quiver.operators.join.WindowJoinTesting.windowEnd;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.WindowJoinTesting.Recorder;
import dev.quiver.operators.join.WindowJoinTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The stream snapshot of a window join whose buffered rows are mostly spilled: several MB of state
 * reach the stream in small writes (nothing assembles the state first), the spill files stay as
 * they were (reread, not copied), and the restore, read in small reads into the same small budget,
 * goes on to the answer of the uninterrupted run.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowJoinStreamSnapshotTest {
  private static final long BUDGET = 512 * 1024;
  private static final int TARGET = 1024;
  private static final int MIB = 1 << 20;

  /** {@code batches} batches of 1000 rows of both inputs in windows 1 to 4, then watermarks. */
  private static List<Step> stream(int batches) {
    Random random = new Random(7);
    List<Step> steps = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      Long[] ends = new Long[1000];
      int first = 1 + random.nextInt(4);
      for (int i = 0; i < ends.length; i++) {
        ends[i] = windowEnd(i < 900 ? first : 1 + random.nextInt(4));
      }
      steps.add(new Step(b % 2, 9_000 + b, ends, 0));
    }
    for (int w = 1; w <= 4; w++) {
      steps.add(Step.watermark(Math.floorDiv(windowEnd(w) + 999, 1000) - 1));
    }
    return steps;
  }

  @Test
  void aSpilledSnapshotReachesItsStreamInBoundedWritesAndRestores(BufferAllocator a)
      throws IOException {
    JoinKind kind = JoinKind.of(JoinType.LEFT_SEMI);
    int cut = 160;
    List<Step> steps = stream(cut);
    Recorder whole = recorder(kind);
    try (WindowJoinOperator join =
        WindowJoinTesting.keyJoin(WindowJoinOperatorTest.context(a, TARGET), kind, whole)) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), true, whole, a);
    }
    assertThat(whole.rows()).as("rows joined").hasSizeGreaterThan(10_000);

    Recorder pieces = recorder(kind);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    CountingStream state = new CountingStream();
    try (WindowJoinOperator join = WindowJoinTesting.keyJoin(context, kind, pieces)) {
      WindowJoinTesting.drive(join, steps, 0, cut, false, pieces, a);
      int files = join.spilledFiles();
      long spilledBytes = space.spilledBytes();
      long spilledFiles = space.spilledFiles();
      assertThat(files).as("rows spilled").isPositive();
      assertThat(spilledBytes).as("most of the state spilled").isGreaterThan(2L * MIB);
      long used = context.budget().used();
      join.snapshotState(state);
      assertThat(join.spilledFiles()).as("the files stay").isEqualTo(files);
      assertThat(space.spilledBytes()).as("nothing copied").isEqualTo(spilledBytes);
      assertThat(space.spilledFiles()).isEqualTo(spilledFiles);
      assertThat(space.openReaders()).isZero();
      assertThat(context.budget().used()).as("the budget's use is unchanged").isEqualTo(used);
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(context.budget().used()).isZero();

    MemorySpillSpace again = new MemorySpillSpace();
    OperatorContext restoredContext = small(a, again);
    int respilled;
    try (WindowJoinOperator restored = WindowJoinTesting.keyJoin(restoredContext, kind, pieces)) {
      SmallReads in = new SmallReads(new ByteArrayInputStream(state.toByteArray()));
      restored.restoreState(in);
      assertThat(in.read).as("read to its end").isEqualTo(state.size());
      respilled = restored.spilledFiles();
      assertThat(restored.openWindows()).isEqualTo(4);
      WindowJoinTesting.drive(restored, steps, cut, steps.size(), true, pieces, a);
    }
    assertThat(again.liveFiles()).isZero();
    assertThat(restoredContext.budget().used()).isZero();
    WindowJoinTesting.assertSameByStep(pieces.byStep, whole.byStep);
    // After the answer, so that a snapshot that loses rows fails on the answer first.
    assertThat(respilled).as("spilled again while restoring").isPositive();
    assertThat(state.size()).as("a state of several MB").isGreaterThan(4 * MIB);
    assertThat(state.largestWrite).as("the largest write").isPositive().isLessThan(MIB);
    assertThat(state.writes).as("writes").isGreaterThan(4 * MIB / (64 * 1024));
  }

  /** Counts writes and remembers the largest. */
  private static final class CountingStream extends ByteArrayOutputStream {
    int largestWrite;
    long writes;

    @Override
    public synchronized void write(int b) {
      count(1);
      super.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      count(len);
      super.write(b, off, len);
    }

    private void count(int length) {
      writes++;
      largestWrite = Math.max(largestWrite, length);
    }
  }

  /** Hands out at most 4 KiB per read, as a network stream may. */
  private static final class SmallReads extends InputStream {
    private final InputStream in;
    long read;

    SmallReads(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        read++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, Math.min(len, 4096));
      if (n > 0) {
        read += n;
      }
      return n;
    }
  }

  private static Recorder recorder(JoinKind kind) {
    return new Recorder(TARGET, kind.type().outputSchema(PROBE, BUILD));
  }

  private static OperatorContext small(BufferAllocator a, MemorySpillSpace space) {
    return new OperatorContext(a, new MemoryBudget("small task", BUDGET), TARGET, space);
  }
}
