package dev.quiver.operators.spill;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.BatchTransfer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link SpillSpace} for operator tests: "files" are Arrow IPC streams in byte arrays, so batches
 * really go through serialization, and the space counts what is still alive (files not deleted,
 * readers not closed) so a test can check that an operator cleaned up after itself. It can also
 * fail like a full disk after a number of written batches.
 */
public final class MemorySpillSpace implements SpillSpace {
  private final Set<Object> liveFiles = new HashSet<>();
  private final Set<Object> openReaders = new HashSet<>();
  private final Set<MemoryStore> liveStores = new HashSet<>();
  private int maxOpenReaders;
  private int largestPut; // entries of one putAll, any store
  private long puts;
  private long bytes;
  private long rows;
  private long files;
  private long writesLeft = Long.MAX_VALUE;

  /** Makes every write after the next {@code batches} fail like a full disk. */
  public MemorySpillSpace failWritesAfter(long batches) {
    this.writesLeft = batches;
    return this;
  }

  /** Files created and not deleted yet (unfinished writers included). */
  public int liveFiles() {
    return liveFiles.size();
  }

  /** Readers opened and not closed yet. */
  public int openReaders() {
    return openReaders.size();
  }

  /** The most readers that were open at once: the widest merge. */
  public int maxOpenReaders() {
    return maxOpenReaders;
  }

  @Override
  public boolean canSpill() {
    return true;
  }

  @Override
  public SpillWriter create(Schema schema, String purpose) {
    requireNonNull(schema, "schema is null");
    requireNonNull(purpose, "purpose is null");
    files++;
    return new Writer(schema);
  }

  @Override
  public SpillStore openStore(String purpose) {
    requireNonNull(purpose, "purpose is null");
    MemoryStore store = new MemoryStore();
    liveStores.add(store);
    return store;
  }

  /** Stores opened and not closed yet. */
  public int liveStores() {
    return liveStores.size();
  }

  /** The most entries one putAll of any store wrote. */
  public int largestPut() {
    return largestPut;
  }

  /** putAll calls of every store. */
  public long puts() {
    return puts;
  }

  /** Entries in the stores still open. */
  public long storedEntries() {
    return liveStores.stream().mapToLong(store -> store.entries.size()).sum();
  }

  /** A store in a sorted map of byte strings, as RocksDB orders them (unsigned bytes). */
  private final class MemoryStore implements SpillStore {
    private final java.util.TreeMap<byte[], byte[]> entries =
        new java.util.TreeMap<>(java.util.Arrays::compareUnsigned);
    private boolean closed;

    @Override
    public void putAll(byte[][] keys, byte[][] values, int count) {
      checkOpen();
      largestPut = Math.max(largestPut, count);
      puts++;
      for (int i = 0; i < count; i++) {
        entries.put(keys[i].clone(), values[i].clone());
      }
    }

    @Override
    public void getAll(byte[][] keys, int count, byte[][] values) {
      checkOpen();
      for (int i = 0; i < count; i++) {
        byte[] value = entries.get(keys[i]);
        values[i] = value == null ? null : value.clone();
      }
    }

    @Override
    public void deleteAll(byte[][] keys, int count) {
      checkOpen();
      for (int i = 0; i < count; i++) {
        entries.remove(keys[i]);
      }
    }

    @Override
    public void forEach(Visitor visitor) {
      checkOpen();
      entries.forEach((key, value) -> visitor.visit(key.clone(), value.clone()));
    }

    @Override
    public long diskBytes() {
      return entries.entrySet().stream()
          .mapToLong(e -> e.getKey().length + e.getValue().length)
          .sum();
    }

    private void checkOpen() {
      if (closed) {
        throw new IllegalStateException("store is closed");
      }
    }

    @Override
    public void close() {
      closed = true;
      entries.clear();
      liveStores.remove(this);
    }
  }

  /**
   * Asserts that an operator of {@code context} over this space cleaned up after itself: nothing
   * reserved in its budget, every spill file deleted, every reader closed.
   */
  public void assertCleanedUp(OperatorContext context) {
    assertThat(context.budget().used()).as("everything released").isZero();
    assertThat(liveFiles()).as("every spill file deleted").isZero();
    assertThat(openReaders()).as("every reader closed").isZero();
  }

  @Override
  public long spilledBytes() {
    return bytes;
  }

  @Override
  public long spilledRows() {
    return rows;
  }

  @Override
  public long spilledFiles() {
    return files;
  }

  private final class Writer implements SpillWriter {
    private final Schema schema;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final WriteChannel channel = new WriteChannel(Channels.newChannel(out));
    private long writtenRows;
    private int batches;
    private boolean done;

    Writer(Schema schema) {
      this.schema = schema;
      liveFiles.add(this);
      try {
        MessageSerializer.serialize(channel, schema);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void write(VectorSchemaRoot batch) {
      if (done) {
        throw new IllegalStateException("spill writer is closed");
      }
      if (!BatchTransfer.sameTypes(batch, schema)) {
        throw new IllegalArgumentException(batch.getSchema() + " does not match " + schema);
      }
      if (batch.getRowCount() == 0) {
        return;
      }
      if (writesLeft-- <= 0) {
        throw new QuiverException(ErrorCode.FILE_WRITE_FAILED, "test disk is full");
      }
      long before = out.size();
      try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
        MessageSerializer.serialize(channel, record);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      bytes += out.size() - before;
      rows += batch.getRowCount();
      writtenRows += batch.getRowCount();
      batches++;
    }

    @Override
    public long rows() {
      return writtenRows;
    }

    @Override
    public SpillFile finish() {
      if (done) {
        throw new IllegalStateException("spill writer is closed");
      }
      try {
        ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      done = true;
      liveFiles.remove(this);
      return new File(out.toByteArray(), writtenRows, batches);
    }

    @Override
    public void close() {
      done = true;
      liveFiles.remove(this);
    }
  }

  private final class File implements SpillFile {
    private final byte[] data;
    private final long fileRows;
    private final int batches;
    private Reader reader;
    private final java.util.List<Reader> rereads = new java.util.ArrayList<>();
    private boolean opened;
    private boolean closed;

    File(byte[] data, long rows, int batches) {
      this.data = data;
      this.fileRows = rows;
      this.batches = batches;
      liveFiles.add(this);
    }

    @Override
    public long rows() {
      return fileRows;
    }

    @Override
    public int batches() {
      return batches;
    }

    @Override
    public long bytes() {
      return data.length;
    }

    @Override
    public SpillReader open(BufferAllocator allocator) {
      if (opened || closed) {
        throw new IllegalStateException("spill file was opened or closed already");
      }
      opened = true;
      reader =
          new Reader(new ArrowStreamReader(new ByteArrayInputStream(data), allocator), allocator);
      return reader;
    }

    @Override
    public SpillReader reread(BufferAllocator allocator) {
      if (closed) {
        throw new IllegalStateException("spill file is closed");
      }
      rereads.removeIf(r -> r.closed);
      Reader again =
          new Reader(new ArrowStreamReader(new ByteArrayInputStream(data), allocator), allocator);
      rereads.add(again);
      return again;
    }

    @Override
    public void close() {
      closed = true;
      if (reader != null) {
        reader.close();
      }
      rereads.forEach(Reader::close);
      rereads.clear();
      liveFiles.remove(this);
    }
  }

  private final class Reader implements SpillReader {
    private final ArrowStreamReader reader;
    private final BufferAllocator allocator;
    private boolean closed;

    Reader(ArrowStreamReader reader, BufferAllocator allocator) {
      this.reader = reader;
      this.allocator = allocator;
      openReaders.add(this);
      maxOpenReaders = Math.max(maxOpenReaders, openReaders.size());
    }

    @Override
    public VectorSchemaRoot next() {
      if (closed) {
        throw new IllegalStateException("spill reader is closed");
      }
      try {
        if (!reader.loadNextBatch()) {
          return null;
        }
        return BatchTransfer.move(reader.getVectorSchemaRoot(), allocator);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        openReaders.remove(this);
        try {
          reader.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
