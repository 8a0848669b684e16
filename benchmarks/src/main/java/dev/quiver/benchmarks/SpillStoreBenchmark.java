package dev.quiver.benchmarks;

import dev.quiver.operators.memory.Allocators;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import dev.quiver.operators.spill.SpillWriter;
import dev.quiver.state.spill.FileSpillSpace;
import dev.quiver.state.spill.SpillCompression;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
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
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.VectorMemTableConfig;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a spilling GROUP BY should put its groups' states: Quiver's Arrow IPC spill files ({@link
 * FileSpillSpace}) or RocksDB, the row-wise key-value store issue #9 names as the alternative.
 *
 * <p>Workload: {@code groups} distinct groups of aggregate states, {@code (key utf8 10–25 bytes,
 * count int64, sum decimal(38,2), min int64)}, generated deterministically as 8,192-row Arrow
 * batches in setup (keys in random order, as a hash partition holds them). One invocation spills
 * all of them and reads them back for a merge:
 *
 * <pre>
 *   ARROW_ZSTD / ARROW_NONE   batches ─► FileSpillSpace (zstd:1 / none), 32 files (one per hash
 *                             partition, batches round robin) ─► each file read back, batch by batch
 *   ROCKSDB_NONE / _LZ4       rows ─► key → 32-byte state row, WriteBatch per 8,192 rows (no WAL,
 *                             no sync, 64 MiB write buffers) ─► flush ─► iterate all entries in
 *                             key order, decode into 8,192-row Arrow batches
 *   ROCKSDB_LZ4_VECTOR        the same with the vector memtable (append, sorted at flush: the
 *                             cheapest bulk load RocksDB offers)
 *   ROCKSDB_LZ4_MERGE         groups kept in RocksDB: the states arrive twice (two spills, every key
 *                             recurs), the second time each row is a get + combine + put
 *                             (bloom filters on); then iterate and decode as above
 * </pre>
 *
 * The score is milliseconds per invocation (single shot: each iteration is one spill + read of
 * every group). {@link Counters} adds the process CPU seconds of the invocation (every thread, so
 * RocksDB's flush and compaction threads count), the bytes on disk after writing, and the wall
 * seconds of the two phases (write: until every group is on disk; read: back into Arrow batches,
 * then the files deleted); JMH sums them over the measured iterations. Uncompressed Arrow bytes of
 * the input are logged in setup; MB/s = those bytes over the score. The merge variant handles every
 * state twice (2 × the Arrow bytes), and its output is already merged, whereas the Arrow files are
 * re-aggregated by the operator's hash table afterwards (not measured here).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class SpillStoreBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(SpillStoreBenchmark.class);
  static final int BATCH_ROWS = 8_192;
  static final int PARTITIONS = 32;
  private static final int VALUE_BYTES = 32; // count 8, sum 16 (little-endian, as Arrow), min 8

  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("key", ArrowType.Utf8.INSTANCE),
              Field.nullable("count", new ArrowType.Int(64, true)),
              new Field("sum", FieldType.nullable(new ArrowType.Decimal(38, 2, 128)), null),
              Field.nullable("min", new ArrowType.Int(64, true))));

  /** A spill store and its settings. */
  public enum Store {
    ARROW_ZSTD,
    ARROW_NONE,
    ROCKSDB_NONE,
    ROCKSDB_LZ4,
    ROCKSDB_LZ4_VECTOR,
    ROCKSDB_LZ4_MERGE
  }

  @Param({"2000000"})
  public int groups;

  @Param({
    "ARROW_ZSTD",
    "ARROW_NONE",
    "ROCKSDB_NONE",
    "ROCKSDB_LZ4",
    "ROCKSDB_LZ4_VECTOR",
    "ROCKSDB_LZ4_MERGE"
  })
  public Store store;

  BufferAllocator allocator;
  List<VectorSchemaRoot> batches;
  long arrowBytes;

  /** Sum of every group's count, what each read-back must find. */
  long expectedCountSum;

  private Path directory;

  /** Process CPU time and bytes on disk of each invocation (summed over an iteration). */
  @AuxCounters(AuxCounters.Type.EVENTS)
  @State(Scope.Thread)
  public static class Counters {
    private static final com.sun.management.OperatingSystemMXBean OS =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Process CPU seconds (all threads). */
    public double cpuSeconds;

    /** Bytes of the spill on disk after writing (RocksDB: every file of the database). */
    public long diskBytes;

    /** Wall seconds until every group is on disk (RocksDB: puts and the flush). */
    public double writeSeconds;

    /** Wall seconds reading every group back into Arrow batches. */
    public double readSeconds;

    private long cpuStart;
    private long wallStart;

    @Setup(Level.Iteration)
    public void reset() {
      cpuSeconds = 0;
      diskBytes = 0;
      writeSeconds = 0;
      readSeconds = 0;
    }

    void start() {
      cpuStart = OS.getProcessCpuTime();
      wallStart = System.nanoTime();
    }

    /** Every group is on disk: the read starts. */
    void written() {
      long now = System.nanoTime();
      writeSeconds += (now - wallStart) / 1e9;
      wallStart = now;
    }

    void stop() {
      cpuSeconds += (OS.getProcessCpuTime() - cpuStart) / 1e9;
      readSeconds += (System.nanoTime() - wallStart) / 1e9;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    RocksDB.loadLibrary();
    allocator = Allocators.newChild("benchmark:spill-store");
    batches = new ArrayList<>();
    for (int first = 0; first < groups; first += BATCH_ROWS) {
      VectorSchemaRoot batch = generate(allocator, first, Math.min(BATCH_ROWS, groups - first));
      batches.add(batch);
      for (FieldVector vector : batch.getFieldVectors()) {
        for (ArrowBuf buffer : vector.getFieldBuffers()) {
          arrowBytes += buffer.writerIndex();
        }
      }
      BigIntVector counts = (BigIntVector) batch.getVector(1);
      for (int row = 0; row < batch.getRowCount(); row++) {
        expectedCountSum += counts.get(row);
      }
    }
    directory =
        Files.createTempDirectory(
            Path.of(System.getProperty("java.io.tmpdir")), "quiver-spill-store-");
    LOG.info(
        "{}: {} groups in {} batches, {} Arrow bytes, under {}",
        store,
        groups,
        batches.size(),
        arrowBytes,
        directory);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    for (VectorSchemaRoot batch : batches) {
      batch.close();
    }
    allocator.close();
    deleteTree(directory);
  }

  /** Spills every group and reads every group back; returns the groups read. */
  @Benchmark
  public long spillAndRead(Counters counters) throws IOException, RocksDBException {
    counters.start();
    long[] read; // rows, sum of counts
    switch (store) {
      case ARROW_ZSTD:
        read = arrow(SpillCompression.DEFAULT, counters);
        break;
      case ARROW_NONE:
        read = arrow(SpillCompression.NONE, counters);
        break;
      case ROCKSDB_NONE:
        read = rocksdb(CompressionType.NO_COMPRESSION, false, false, counters);
        break;
      case ROCKSDB_LZ4:
        read = rocksdb(CompressionType.LZ4_COMPRESSION, false, false, counters);
        break;
      case ROCKSDB_LZ4_VECTOR:
        read = rocksdb(CompressionType.LZ4_COMPRESSION, true, false, counters);
        break;
      case ROCKSDB_LZ4_MERGE:
        read = rocksdb(CompressionType.LZ4_COMPRESSION, false, true, counters);
        break;
      default:
        throw new IllegalStateException(String.valueOf(store));
    }
    counters.stop();
    long expected = store == Store.ROCKSDB_LZ4_MERGE ? 2 * expectedCountSum : expectedCountSum;
    if (read[0] != groups || read[1] != expected) {
      throw new IllegalStateException(
          store + " read " + read[0] + " groups, count sum " + read[1] + ", expected " + expected);
    }
    return read[0];
  }

  /** Quiver's path: 32 spill files, batches round robin, each file read back in turn. */
  private long[] arrow(SpillCompression compression, Counters counters) {
    long rows = 0;
    long countSum = 0;
    try (FileSpillSpace space = new FileSpillSpace(List.of(directory), "benchmark", compression)) {
      List<SpillWriter> writers = new ArrayList<>();
      for (int partition = 0; partition < PARTITIONS; partition++) {
        writers.add(space.create(SCHEMA, "aggregate-partition"));
      }
      for (int i = 0; i < batches.size(); i++) {
        writers.get(i % PARTITIONS).write(batches.get(i));
      }
      List<SpillFile> files = new ArrayList<>();
      for (SpillWriter writer : writers) {
        files.add(writer.finish());
      }
      for (SpillFile file : files) {
        counters.diskBytes += file.bytes();
      }
      counters.written();
      for (SpillFile file : files) {
        try (file;
            SpillReader reader = file.open(allocator)) {
          for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
            try (VectorSchemaRoot batch = next) {
              BigIntVector counts = (BigIntVector) batch.getVector(1);
              for (int row = 0; row < batch.getRowCount(); row++) {
                countSum += counts.get(row);
              }
              rows += batch.getRowCount();
            }
          }
        }
      }
    }
    return new long[] {rows, countSum};
  }

  /**
   * RocksDB: each group's key → its state as a 32-byte row; written in a WriteBatch per Arrow batch
   * without WAL or sync, flushed, then iterated in key order and decoded into Arrow batches.
   */
  private long[] rocksdb(
      CompressionType compression, boolean vectorMemtable, boolean merge, Counters counters)
      throws RocksDBException, IOException {
    Path path = Files.createTempDirectory(directory, "rocksdb-");
    BlockBasedTableConfig table = new BlockBasedTableConfig();
    try (BloomFilter bloom = new BloomFilter(10);
        Options options =
            new Options()
                .setCreateIfMissing(true)
                .setCompressionType(compression)
                .setWriteBufferSize(64L << 20)
                .setMaxWriteBufferNumber(3)
                .setMaxBackgroundJobs(2)
                .setTableFormatConfig(table);
        WriteOptions write = new WriteOptions().setDisableWAL(true).setSync(false);
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      if (merge) {
        table.setFilterPolicy(bloom);
        options.setTableFormatConfig(table);
      }
      if (vectorMemtable) {
        options
            .setMemTableConfig(new VectorMemTableConfig())
            .setAllowConcurrentMemtableWrite(false);
      }
      long[] result;
      try (RocksDB db = RocksDB.open(options, path.toString())) {
        put(db, write, false);
        if (merge) {
          db.flush(flush); // the first spill is on disk before the second arrives
          put(db, write, true);
        }
        db.flush(flush);
        counters.diskBytes += treeBytes(path);
        counters.written();
        result = iterate(db);
      }
      RocksDB.destroyDB(path.toString(), options);
      return result;
    } finally {
      deleteTree(path);
    }
  }

  /** Every group as key → state row; with {@code combine}, each row is a get, combine and put. */
  private void put(RocksDB db, WriteOptions write, boolean combine) throws RocksDBException {
    byte[] value = new byte[VALUE_BYTES];
    try (WriteBatch writeBatch = new WriteBatch()) {
      for (VectorSchemaRoot batch : batches) {
        VarCharVector keys = (VarCharVector) batch.getVector(0);
        BigIntVector counts = (BigIntVector) batch.getVector(1);
        DecimalVector sums = (DecimalVector) batch.getVector(2);
        BigIntVector mins = (BigIntVector) batch.getVector(3);
        ArrowBuf sumData = sums.getDataBuffer();
        for (int row = 0; row < batch.getRowCount(); row++) {
          byte[] key = keys.get(row);
          long count = counts.get(row);
          long sumLow = sumData.getLong(16L * row);
          long sumHigh = sumData.getLong(16L * row + 8);
          long min = mins.get(row);
          if (combine) {
            byte[] old = db.get(key);
            if (old != null) {
              count += getLong(old, 0);
              long oldLow = getLong(old, 8);
              long low = sumLow + oldLow;
              sumHigh += getLong(old, 16) + (Long.compareUnsigned(low, sumLow) < 0 ? 1 : 0);
              sumLow = low;
              min = Math.min(min, getLong(old, 24));
            }
          }
          putLong(value, 0, count);
          putLong(value, 8, sumLow);
          putLong(value, 16, sumHigh);
          putLong(value, 24, min);
          writeBatch.put(key, value);
        }
        db.write(write, writeBatch);
        writeBatch.clear();
      }
    }
  }

  /** Every entry in key order, decoded into 8,192-row Arrow batches (closed at once). */
  private long[] iterate(RocksDB db) {
    long rows = 0;
    long countSum = 0;
    try (ReadOptions read = new ReadOptions().setReadaheadSize(2 << 20).setFillCache(false);
        RocksIterator iterator = db.newIterator(read);
        VectorSchemaRoot batch = allocate(allocator, BATCH_ROWS)) {
      VarCharVector keys = (VarCharVector) batch.getVector(0);
      BigIntVector counts = (BigIntVector) batch.getVector(1);
      DecimalVector sums = (DecimalVector) batch.getVector(2);
      BigIntVector mins = (BigIntVector) batch.getVector(3);
      int row = 0;
      for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
        if (row == BATCH_ROWS) {
          batch.setRowCount(row);
          countSum += sumCounts(counts, row);
          rows += row;
          batch.clear(); // the merge would consume the batch here
          allocateNew(batch, BATCH_ROWS);
          row = 0;
        }
        byte[] value = iterator.value();
        keys.setSafe(row, iterator.key());
        counts.set(row, getLong(value, 0));
        ArrowBuf sumData = sums.getDataBuffer();
        sumData.setLong(16L * row, getLong(value, 8));
        sumData.setLong(16L * row + 8, getLong(value, 16));
        sums.setIndexDefined(row);
        mins.set(row, getLong(value, 24));
        row++;
      }
      batch.setRowCount(row);
      countSum += sumCounts(counts, row);
      rows += row;
      try {
        iterator.status();
      } catch (RocksDBException e) {
        throw new IllegalStateException(e);
      }
    }
    return new long[] {rows, countSum};
  }

  private static long sumCounts(BigIntVector counts, int rows) {
    long sum = 0;
    for (int row = 0; row < rows; row++) {
      sum += counts.get(row);
    }
    return sum;
  }

  /**
   * Groups {@code first .. first + rows - 1}: a key of 10–25 bytes (random letters, then the group
   * number in 5 base-36 digits, so keys are unique and in random order), count 1–1,000, a sum of up
   * to ±10^11 (scale 2) and a min.
   */
  static VectorSchemaRoot generate(BufferAllocator allocator, int first, int rows) {
    VectorSchemaRoot batch = allocate(allocator, rows);
    VarCharVector keys = (VarCharVector) batch.getVector(0);
    BigIntVector counts = (BigIntVector) batch.getVector(1);
    DecimalVector sums = (DecimalVector) batch.getVector(2);
    BigIntVector mins = (BigIntVector) batch.getVector(3);
    byte[] key = new byte[25];
    for (int row = 0; row < rows; row++) {
      long group = first + row;
      long h = mix(group);
      int length = 10 + (int) ((h >>> 59) & 15);
      long letters = mix(h);
      for (int i = 0; i < length - 5; i++) {
        key[i] = (byte) ('a' + Long.remainderUnsigned(letters >>> (i % 8) * 8, 26));
        if (i % 8 == 7) {
          letters = mix(letters);
        }
      }
      long number = group;
      for (int i = length - 1; i >= length - 5; i--) {
        key[i] = (byte) Character.forDigit((int) (number % 36), 36);
        number /= 36;
      }
      keys.setSafe(row, key, 0, length);
      counts.set(row, 1 + Long.remainderUnsigned(h, 1_000));
      sums.setSafe(row, (h >> 26)); // unscaled, |sum| < 2^37 ≈ 1.4 * 10^11
      mins.set(row, h >> 40);
    }
    batch.setRowCount(rows);
    return batch;
  }

  private static long mix(long x) { // splitmix64
    x += 0x9E3779B97F4A7C15L;
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    return x ^ (x >>> 31);
  }

  private static void putLong(byte[] bytes, int offset, long value) {
    for (int i = 0; i < 8; i++) {
      bytes[offset + i] = (byte) (value >>> 8 * i);
    }
  }

  private static long getLong(byte[] bytes, int offset) {
    long value = 0;
    for (int i = 7; i >= 0; i--) {
      value = value << 8 | (bytes[offset + i] & 0xFF);
    }
    return value;
  }

  private static long treeBytes(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(SpillStoreBenchmark::size).sum();
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }

  /** A batch of the schema with room for {@code rows} rows (keys grow as needed). */
  private static VectorSchemaRoot allocate(BufferAllocator allocator, int rows) {
    VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator);
    allocateNew(batch, rows);
    return batch;
  }

  private static void allocateNew(VectorSchemaRoot batch, int rows) {
    for (FieldVector vector : batch.getFieldVectors()) {
      vector.setInitialCapacity(rows);
    }
    batch.allocateNew();
  }
}
