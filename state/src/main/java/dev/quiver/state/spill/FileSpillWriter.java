package dev.quiver.state.spill;

import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes one spill file as an Arrow IPC stream: the schema message, one record batch message per
 * batch (bodies compressed with the space's codec, buffers 8-byte aligned), the end-of-stream
 * marker. Batches go straight from their off-heap buffers to the file channel: no heap copy.
 */
final class FileSpillWriter implements SpillWriter {
  private final FileSpillSpace space;
  private final Path file;
  private final Schema schema;
  private final CompressionCodec codec;
  private final FileChannel channel;
  private final WriteChannel out;
  private long rows;
  private int batches;
  private boolean done; // finished or abandoned

  FileSpillWriter(FileSpillSpace space, Path file, Schema schema, CompressionCodec codec) {
    this.space = space;
    this.file = file;
    this.schema = schema;
    this.codec = codec;
    try {
      this.channel = SpillChannels.createFile(file);
    } catch (IOException e) {
      throw space.writeFailed(file, e);
    }
    this.out = new WriteChannel(channel);
    try {
      space.register(file, this);
      MessageSerializer.serialize(out, schema, IpcOption.DEFAULT);
    } catch (IOException e) {
      abandon();
      throw space.writeFailed(file, e);
    } catch (RuntimeException e) {
      abandon(); // the space was closed meanwhile
      throw e;
    }
  }

  @Override
  public void write(VectorSchemaRoot batch) {
    checkOpen();
    if (!BatchTransfer.sameTypes(batch, schema)) {
      throw new IllegalArgumentException(
          "batch schema " + batch.getSchema() + " does not match the spill file's " + schema);
    }
    int count = batch.getRowCount();
    if (count == 0) {
      return;
    }
    long before = out.getCurrentPosition();
    try (ArrowRecordBatch record = new VectorUnloader(batch, true, codec, true).getRecordBatch()) {
      MessageSerializer.serialize(out, record, IpcOption.DEFAULT);
    } catch (IOException e) {
      throw space.writeFailed(file, e);
    }
    rows += count;
    batches++;
    space.written(count, out.getCurrentPosition() - before);
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public SpillFile finish() {
    checkOpen();
    long size;
    try {
      ArrowStreamWriter.writeEndOfStream(out, IpcOption.DEFAULT);
      size = out.getCurrentPosition();
      done = true;
      channel.close();
    } catch (IOException e) {
      close();
      throw space.writeFailed(file, e);
    }
    FileSpill spill = new FileSpill(space, file, rows, batches, size);
    try {
      space.register(file, spill); // replaces this writer
    } catch (RuntimeException e) {
      spill.close();
      throw e;
    }
    return spill;
  }

  /** Abandons an unfinished file: closes and deletes it. */
  @Override
  public void close() {
    if (!done) {
      abandon();
    }
  }

  private void abandon() {
    done = true;
    try {
      channel.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot delete spill file " + file, e);
    } finally {
      space.unregister(file);
    }
  }

  private void checkOpen() {
    if (done) {
      throw new IllegalStateException("spill writer of " + file + " is closed");
    }
  }
}
