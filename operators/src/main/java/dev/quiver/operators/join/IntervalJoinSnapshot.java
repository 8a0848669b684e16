package dev.quiver.operators.join;

import dev.quiver.operators.StateStreams;
import dev.quiver.operators.kernel.BatchStreams;
import dev.quiver.operators.memory.BatchTransfer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of an {@link IntervalJoinOperator}, written to a stream batch by batch:
 *
 * <pre>
 *   version                       1 byte: {@value #VERSION}
 *   watermark                     int64, ms since the epoch (Long.MIN_VALUE: none yet)
 *   late build rows, late probe rows, build rows without time, probe rows without time: 4 × int64
 *   finished inputs               1 byte: bit 0 build, bit 1 probe
 *   build rows                    an Arrow IPC stream (no length: its end-of-stream marker ends it)
 *                                 of the build rows not joined yet, in memory and in spill files
 *   matched probe rows            int32 batches, then per probe batch of the stream below, in
 *                                 order: int32 words, that many int64 words of its matched bits
 *                                 (LEFT / FULL joins; no words when none matched)
 *   probe rows                    an Arrow IPC stream of the probe rows held
 * </pre>
 *
 * Rows in spill files are reread into the stream one batch at a time; the files stay. A restore
 * holds the rows again as they were (no lateness check: they were on time when they came), each
 * probe batch with its matched bits, spilling as the budget requires, so the restored operator
 * joins and evicts them at the same watermarks, and pads the same unmatched probe rows. A later
 * format gets a new version; {@link #read} refuses versions it does not know, reads version 3 (the
 * matched bits after the probe rows, restored in memory only), version 2 (as 3, each stream behind
 * an int64 length) and version 1 (as version 2 without matched bits: nothing matched).
 */
final class IntervalJoinSnapshot {
  static final byte VERSION = 4;
  private static final byte MARKS_AFTER_VERSION = 3; // and 2: the matched bits after the rows
  private static final byte LENGTHS_VERSION = 2; // and 1: an int64 length before each stream
  private static final int HEADER_BYTES = 1 + 5 * Long.BYTES + 1;
  private static final BatchStreams.Names NAMES =
      new BatchStreams.Names("an interval join state", "rows", "a join of rows");

  /** What the operator keeps beyond its buffers. */
  record Header(long watermark, boolean buildFinished, boolean probeFinished) {}

  private IntervalJoinSnapshot() {}

  /** Writes to {@code out} the state of {@code header} and of both buffers, batch by batch. */
  static void write(
      OutputStream out,
      Header header,
      Schema buildSchema,
      IntervalJoinBuffer build,
      Schema probeSchema,
      IntervalJoinBuffer probe)
      throws IOException {
    DataOutputStream data = StateStreams.snapshotWriter(out);
    data.write(VERSION);
    data.writeLong(header.watermark());
    data.writeLong(build.late());
    data.writeLong(probe.late());
    data.writeLong(build.withoutTime());
    data.writeLong(probe.withoutTime());
    data.write((header.buildFinished() ? 1 : 0) | (header.probeFinished() ? 2 : 0));
    BatchStreams.write(data, buildSchema, build::forEachPending);
    List<BitSet> marks = probe.pendingMarks();
    data.writeInt(marks.size());
    for (BitSet matched : marks) {
      long[] words = matched.toLongArray();
      data.writeInt(words.length);
      for (long word : words) {
        data.writeLong(word);
      }
    }
    BatchStreams.write(data, probeSchema, probe::forEachPending);
    data.flush();
  }

  /**
   * Restores a state read from {@code in} to its end into the empty buffers {@code build} and
   * {@code probe} (their rows are admitted again, not checked for lateness: they were on time when
   * they came) and returns the header.
   *
   * @throws IllegalArgumentException if {@code in} is not a snapshot of this format or its rows are
   *     not of the schemas' types (the snapshot of another join)
   * @throws IOException if {@code in} fails
   */
  static Header read(
      InputStream in,
      Schema buildSchema,
      IntervalJoinBuffer build,
      Schema probeSchema,
      IntervalJoinBuffer probe,
      BufferAllocator allocator)
      throws IOException {
    int version = in.read();
    if (version < 1 || version > VERSION) {
      throw new IllegalArgumentException(
          "not an interval join state of versions 1 to "
              + VERSION
              + ": "
              + (version < 0 ? "empty" : "version " + version));
    }
    DataInputStream data = new DataInputStream(StateStreams.unclosable(in));
    try {
      long watermark = data.readLong();
      long lateBuild = data.readLong();
      long lateProbe = data.readLong();
      long buildWithoutTime = data.readLong();
      long probeWithoutTime = data.readLong();
      byte finished = data.readByte();
      readRows(
          data, version, buildSchema, allocator, rows -> build.restore(rows, new BitSet(), true));
      if (version > MARKS_AFTER_VERSION) {
        List<BitSet> marks = readMarks(data);
        int[] next = {0};
        readRows(
            data,
            version,
            probeSchema,
            allocator,
            rows -> {
              if (next[0] >= marks.size()) {
                rows.close();
                throw corrupt(marks.size(), next[0] + 1);
              }
              probe.restore(rows, marks.get(next[0]++), true);
            });
        if (next[0] != marks.size()) {
          throw corrupt(marks.size(), next[0]);
        }
      } else {
        // Older layouts: the bits follow the rows, so the rows stay in memory, as they did then.
        readRows(
            data,
            version,
            probeSchema,
            allocator,
            rows -> probe.restore(rows, new BitSet(), false));
        if (version >= 2) {
          List<BitSet> marks = readMarks(data);
          List<HeldRows> held = probe.held();
          if (marks.size() != held.size()) {
            throw corrupt(marks.size(), held.size());
          }
          for (int i = 0; i < marks.size(); i++) {
            held.get(i).matched.or(marks.get(i));
          }
        }
      }
      build.counters(lateBuild, buildWithoutTime);
      probe.counters(lateProbe, probeWithoutTime);
      return new Header(watermark, (finished & 1) != 0, (finished & 2) != 0);
    } catch (EOFException e) {
      throw new IllegalArgumentException("an interval join state is truncated", e);
    }
  }

  private static void readRows(
      DataInputStream in,
      int version,
      Schema schema,
      BufferAllocator allocator,
      Consumer<VectorSchemaRoot> batches)
      throws IOException {
    if (version <= LENGTHS_VERSION) {
      long length = in.readLong(); // the stream ends itself
      if (length < 0) {
        throw new IllegalArgumentException("an interval join state is truncated");
      }
    }
    BatchStreams.read(
        in,
        schema,
        allocator,
        rows -> batches.accept(BatchTransfer.withSchema(rows, schema)),
        NAMES);
  }

  /** Reads the matched bits of the probe batches. */
  private static List<BitSet> readMarks(DataInputStream in) throws IOException {
    int batches = in.readInt();
    if (batches < 0) {
      throw new IllegalArgumentException("an interval join state is truncated");
    }
    List<BitSet> marks = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      int count = in.readInt();
      if (count < 0 || count > (1 << 28)) {
        throw new IllegalArgumentException("an interval join state is truncated");
      }
      long[] words = new long[count];
      for (int i = 0; i < count; i++) {
        words[i] = in.readLong();
      }
      marks.add(BitSet.valueOf(words));
    }
    return marks;
  }

  private static IllegalArgumentException corrupt(int marks, int batches) {
    return new IllegalArgumentException(
        "an interval join state is corrupt: matched bits of "
            + marks
            + " probe batches for "
            + batches);
  }
}
