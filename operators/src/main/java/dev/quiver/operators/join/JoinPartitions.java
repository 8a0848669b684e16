package dev.quiver.operators.join;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.hash.VectorHasher;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.plan.join.JoinType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One level of a spilling hash join's partitions: {@value #COUNT} pairs of spill files, build rows
 * and probe rows, split by their key's hash so that partition {@code p}'s probe rows can only match
 * partition {@code p}'s build rows. Every build row is written before the first probe row.
 *
 * <pre>
 *   batch ─► VectorHasher over the keys ─► remix with the level's seed ─► top 5 bits = partition
 *         ─► counting sort of the rows by partition ─► PartitionWriters: coalesce, spill file
 * </pre>
 *
 * <p>Why a remix: the exchange gave this task only rows of its channel (the top bits of the hash)
 * and a {@link dev.quiver.operators.hash.GroupTable} buckets by the low bits; a seeded fmix64 of
 * the whole hash is independent of both and of every other level's, so a partition that is still
 * too large splits again at the next level. Rows whose keys hash alike (one key) never split;
 * {@link GraceJoin} detects that.
 *
 * <p>Rows with a NULL key match nothing. Build rows with one are kept only when the type emits
 * unmatched build rows (dealt round robin, so they never pile up in one partition); probe rows with
 * one only when it emits unmatched probe rows; and for types that do not, probe rows of a partition
 * without build rows are dropped too. Whether the build input had a NULL key and how many rows it
 * had are recorded for null-aware joins ({@link #facts()}).
 */
final class JoinPartitions implements AutoCloseable {
  static final int BITS = 5;
  static final int COUNT = 1 << BITS;
  static final int LEVELS = 4;

  private static final int DROP = COUNT;
  private static final long[] SEEDS = {
    0x9FB2_1C65_1E98_DF25L, 0xC2B2_AE3D_27D4_EB4FL, 0x1656_67B1_9E37_79F9L, 0x85EB_CA77_C2B2_AE63L
  };

  /** One partition's files (null where it got no rows) and its build row count. */
  record Partition(SpillFile build, SpillFile probe, long buildRows) implements AutoCloseable {
    @Override
    public void close() {
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(build, probe));
    }
  }

  private final HashJoinSpec spec;
  private final int level;
  private final boolean keepsNullBuildRows;
  private final boolean keepsUnmatchedProbeRows;
  private final PartitionWriters buildWriters;
  private final PartitionWriters probeWriters;
  private SpillFile[] buildFiles = new SpillFile[COUNT];
  private final long[] buildRows = new long[COUNT];
  private final Deque<Partition> partitions = new ArrayDeque<>();
  private final int[] starts = new int[COUNT + 2];
  private final int[] cursor = new int[COUNT + 1];
  private long[] hashes = new long[0];
  private int[] partitionOf = new int[0];
  private int[] order = new int[0];
  private long rowsSeen;
  private boolean nullKeySeen;
  private boolean[] isNull = new boolean[0];
  private long firstHash;
  private boolean sawKey; // a build row without NULL keys
  private boolean oneHash = true; // every such build row so far had the same hash
  private int roundRobin;

  JoinPartitions(HashJoinSpec spec, int level) {
    if (level >= LEVELS) {
      throw new QuiverException(
          ErrorCode.MEMORY_BUDGET_EXCEEDED,
          spec.owner()
              + " cannot join one of its spilled partitions within its "
              + spec.context().budget().limit()
              + "-byte memory budget even split "
              + (1L << (BITS * LEVELS))
              + " ways by key hash: a few keys have too many build rows; give the task more"
              + " memory or use more tasks");
    }
    this.spec = spec;
    this.level = level;
    this.keepsNullBuildRows = spec.type().padsRight() || spec.type() == JoinType.RIGHT_ANTI;
    this.keepsUnmatchedProbeRows = spec.emitsUnmatchedProbeRows();
    this.buildWriters = new PartitionWriters(spec, spec.buildSchema(), "join-build");
    this.probeWriters = new PartitionWriters(spec, spec.probeSchema(), "join-probe");
  }

  /** The next level down, to split one of this level's partitions that does not fit. */
  JoinPartitions child() {
    return new JoinPartitions(spec, level + 1);
  }

  int level() {
    return level;
  }

  /** How many build rows there were and whether one had a NULL key (all of them, dropped too). */
  InMemoryJoin.BuildFacts facts() {
    return new InMemoryJoin.BuildFacts(rowsSeen, nullKeySeen);
  }

  /**
   * Whether every build row had the same key hash (one key, in practice): then no level splits
   * them.
   */
  boolean oneKeyHash() {
    return oneHash && sawKey;
  }

  /** Writes the rows of a build batch (the caller keeps it) to their partitions. */
  void addBuild(VectorSchemaRoot batch) {
    int rows = batch.getRowCount();
    if (rows == 0) {
      return;
    }
    rowsSeen += rows;
    route(batch, spec.buildKeys(), true);
    write(batch, buildWriters, true);
  }

  /** Ends the build files; probe rows may come next. */
  void finishBuild() {
    buildFiles = buildWriters.finish();
  }

  /** Writes the rows of a probe batch (the caller keeps it) to their partitions. */
  void addProbe(VectorSchemaRoot batch) {
    if (batch.getRowCount() > 0) {
      route(batch, spec.probeKeys(), false);
      write(batch, probeWriters, false);
    }
  }

  /** Ends the probe files: the partitions are then taken with {@link #next}. */
  void finishProbe() {
    SpillFile[] probeFiles = probeWriters.finish();
    for (int p = 0; p < COUNT; p++) {
      SpillFile build = buildFiles[p];
      SpillFile probe = probeFiles[p];
      buildFiles[p] = null;
      probeFiles[p] = null;
      // Build rows without probe rows matter only to joins that emit unmatched build rows.
      if (build != null && probe == null && !keepsNullBuildRows) {
        build.close();
      } else if (build != null || probe != null) {
        partitions.add(new Partition(build, probe, buildRows[p]));
      }
    }
  }

  /** The next partition to join, owned by the caller (closing it deletes its files), or null. */
  Partition next() {
    return partitions.poll();
  }

  /** Computes {@code partitionOf[row]} for every row: a partition, or {@link #DROP}. */
  private void route(VectorSchemaRoot batch, int[] keyColumns, boolean build) {
    int rows = batch.getRowCount();
    hashes = VectorHasher.ensureCapacity(hashes, rows);
    if (partitionOf.length < rows) {
      partitionOf = new int[hashes.length];
    }
    VectorHasher.hash(batch, keyColumns, hashes);
    long seed = SEEDS[level];
    int[] to = partitionOf;
    long[] h = hashes;
    for (int i = 0; i < rows; i++) {
      to[i] = (int) (fmix64(h[i] ^ seed) >>> (64 - BITS));
    }
    if (!build && !keepsUnmatchedProbeRows) {
      long[] counts = buildRows;
      for (int i = 0; i < rows; i++) {
        to[i] = counts[to[i]] == 0 ? DROP : to[i];
      }
    }
    boolean nulls = false;
    for (int column : keyColumns) {
      FieldVector key = batch.getVector(column);
      if (key.getNullCount() > 0) {
        if (!nulls) {
          isNull = isNull.length < rows ? new boolean[partitionOf.length] : isNull;
          Arrays.fill(isNull, 0, rows, false);
          nulls = true;
        }
        routeNulls(key.getValidityBuffer(), rows, build);
      }
    }
    if (build && oneHash) {
      compareHashes(rows, nulls);
    }
  }

  /** Keeps {@link #oneHash} up to date over the build rows without NULL keys. */
  private void compareHashes(int rows, boolean nulls) {
    long[] h = hashes;
    for (int i = 0; i < rows; i++) {
      if (nulls && isNull[i]) {
        continue; // dealt round robin (or dropped): they always split
      }
      if (!sawKey) {
        firstHash = h[i];
        sawKey = true;
      } else if (h[i] != firstHash) {
        oneHash = false;
        return;
      }
    }
  }

  /** Re-routes the rows whose key {@code validity} says NULL (see the class comment). */
  private void routeNulls(ArrowBuf validity, int rows, boolean build) {
    int[] to = partitionOf;
    for (int i = 0; i < rows; i++) {
      if (BitVectorHelper.get(validity, i) == 0) {
        isNull[i] = true;
        if (build) {
          nullKeySeen = true;
          to[i] = keepsNullBuildRows ? roundRobin++ & (COUNT - 1) : DROP;
        } else if (!keepsUnmatchedProbeRows) {
          to[i] = DROP;
        }
      }
    }
  }

  /** Writes each partition's rows of {@code batch} to its file (a counting sort, then Take). */
  private void write(VectorSchemaRoot batch, PartitionWriters writers, boolean build) {
    int rows = batch.getRowCount();
    if (order.length < rows) {
      order = new int[partitionOf.length];
    }
    int[] to = partitionOf;
    Arrays.fill(starts, 0);
    for (int i = 0; i < rows; i++) {
      starts[to[i] + 1]++;
    }
    for (int p = 0; p <= COUNT; p++) {
      starts[p + 1] += starts[p];
    }
    System.arraycopy(starts, 0, cursor, 0, COUNT + 1);
    for (int i = 0; i < rows; i++) {
      order[cursor[to[i]]++] = i;
    }
    for (int p = 0; p < COUNT; p++) {
      int count = starts[p + 1] - starts[p];
      if (count > 0) {
        writers.write(p, batch, order, starts[p], count);
        if (build) {
          buildRows[p] += count;
        }
      }
    }
  }

  /** The MurmurHash3 finalizer: every input bit affects every output bit. */
  private static long fmix64(long h) {
    h ^= h >>> 33;
    h *= 0xFF51_AFD7_ED55_8CCDL;
    h ^= h >>> 33;
    h *= 0xC4CE_B9FE_1A85_EC53L;
    h ^= h >>> 33;
    return h;
  }

  /** Abandons unfinished files and deletes every partition not taken. Idempotent. */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>();
    owned.add(buildWriters);
    owned.add(probeWriters);
    owned.addAll(Arrays.asList(buildFiles));
    owned.addAll(partitions);
    Arrays.fill(buildFiles, null);
    partitions.clear();
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
