package dev.quiver.state.spill;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.spill.SpillStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A {@link SpillStore} in a RocksDB database of its own under the task's spill directory, used
 * through {@code org.rocksdb:rocksdbjni} (the only {@code org.rocksdb} on Quiver's class paths).
 *
 * <pre>
 *   putAll / deleteAll ─► one WriteBatch, no write-ahead log, no sync (a crash loses the task anyway)
 *   getAll             ─► one multiGet; bloom filters answer most keys that are not there
 *   forEach            ─► an iterator over a snapshot, in key order
 *   close              ─► the database closed, its directory deleted
 * </pre>
 *
 * <p>Why RocksDB here and Arrow files for the other spills: the other spills are written once and
 * read once front to back, where Arrow IPC files were 12–16× faster than RocksDB (README,
 * "Aggregate spill store"); an updating aggregate reads its groups' old states back by key on every
 * batch, which is what an LSM tree with bloom filters is for. Memory outside the task's budget: at
 * most two 8 MiB write buffers and an 8 MiB block cache per store. Not thread-safe.
 */
final class RocksSpillStore implements SpillStore {
  private static final long WRITE_BUFFER = 8L << 20;
  private static final long BLOCK_CACHE = 8L << 20;

  static {
    RocksDB.loadLibrary();
  }

  private final FileSpillSpace space;
  private final Path directory;
  private final LRUCache cache;
  private final BloomFilter bloom;
  private final Options options;
  private final WriteOptions writes;
  private final ReadOptions reads;
  private final RocksDB db;
  private final List<byte[]> keyList = new ArrayList<>();
  private boolean closed;

  RocksSpillStore(FileSpillSpace space, Path directory) {
    this.space = space;
    this.directory = directory;
    this.cache = new LRUCache(BLOCK_CACHE);
    this.bloom = new BloomFilter(10);
    this.options =
        new Options()
            .setCreateIfMissing(true)
            .setErrorIfExists(true)
            .setWriteBufferSize(WRITE_BUFFER)
            .setMaxWriteBufferNumber(2)
            .setMaxBackgroundJobs(2)
            .setCompressionType(CompressionType.LZ4_COMPRESSION)
            .setTableFormatConfig(
                new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(bloom));
    this.writes = new WriteOptions().setDisableWAL(true).setSync(false);
    this.reads = new ReadOptions().setVerifyChecksums(false);
    try {
      this.db = RocksDB.open(options, directory.toString());
    } catch (RocksDBException e) {
      closeOptions();
      throw failed("open", e);
    }
  }

  @Override
  public void putAll(byte[][] keys, byte[][] values, int count) {
    checkOpen();
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      db.write(writes, batch);
    } catch (RocksDBException e) {
      throw failed("write", e);
    }
    space.stored(count);
  }

  @Override
  public void getAll(byte[][] keys, int count, byte[][] values) {
    checkOpen();
    keyList.clear();
    keyList.addAll(Arrays.asList(keys).subList(0, count));
    try {
      List<byte[]> found = db.multiGetAsList(reads, keyList);
      for (int i = 0; i < count; i++) {
        values[i] = found.get(i);
      }
    } catch (RocksDBException e) {
      throw failed("read", e);
    } finally {
      keyList.clear();
    }
  }

  @Override
  public void deleteAll(byte[][] keys, int count) {
    checkOpen();
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < count; i++) {
        batch.delete(keys[i]);
      }
      db.write(writes, batch);
    } catch (RocksDBException e) {
      throw failed("write", e);
    }
  }

  @Override
  public void forEach(Visitor visitor) {
    checkOpen();
    try (ReadOptions snapshot = new ReadOptions().setFillCache(false);
        RocksIterator entries = db.newIterator(snapshot)) {
      for (entries.seekToFirst(); entries.isValid(); entries.next()) {
        visitor.visit(entries.key(), entries.value());
      }
      entries.status();
    } catch (RocksDBException e) {
      throw failed("read", e);
    }
  }

  @Override
  public long diskBytes() {
    checkOpen();
    try {
      return Long.parseLong(db.getProperty("rocksdb.total-sst-files-size"));
    } catch (RocksDBException | NumberFormatException e) {
      return 0;
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("spill store " + directory + " is closed");
    }
  }

  /**
   * One line naming the directory: a full disk is what users can cause and fix, so it says where.
   */
  private QuiverException failed(String what, RocksDBException e) {
    return new QuiverException(
        ErrorCode.FILE_WRITE_FAILED,
        "Spilling failed: cannot "
            + what
            + " the spill store in directory "
            + directory
            + ": "
            + e.getMessage()
            + "; give the spill directories (under io.tmp.dirs) more room or the task more memory",
        e);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      db.close();
    } finally {
      closeOptions();
      space.storeClosed(this, directory);
    }
  }

  private void closeOptions() {
    writes.close();
    reads.close();
    options.close();
    bloom.close();
    cache.close();
  }

  @Override
  public String toString() {
    return "RocksSpillStore[" + directory + "]";
  }
}
