package dev.quiver.state.checkpoint;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.BatchTransfer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * One Arrow batch as bytes for a checkpoint, and back: the Arrow IPC stream format (schema, one
 * record batch, end of stream), uncompressed, so a restore needs nothing but Arrow and any reader
 * of the format can inspect a snapshot. Meant for state that is small next to the data flowing
 * through a job (a broadcast table, batches waiting for an input to end); a batch is copied once.
 */
public final class BatchBytes {
  private BatchBytes() {}

  /** {@code batch} as bytes; the batch is left as it was. */
  public static byte[] write(VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ArrowStreamWriter writer =
        new ArrowStreamWriter(batch, null, Channels.newChannel(bytes))) {
      writer.start();
      writer.writeBatch();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a batch into memory", e);
    }
    return bytes.toByteArray();
  }

  /** The batch of {@code bytes} (from {@link #write}), in {@code allocator}; the caller owns it. */
  public static VectorSchemaRoot read(byte[] bytes, BufferAllocator allocator) {
    requireNonNull(bytes, "bytes is null");
    requireNonNull(allocator, "allocator is null");
    try (ArrowStreamReader reader =
        new ArrowStreamReader(new ByteArrayInputStream(bytes), allocator)) {
      if (!reader.loadNextBatch()) {
        throw new IllegalStateException("checkpointed batch bytes hold no batch");
      }
      return BatchTransfer.move(reader.getVectorSchemaRoot(), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("checkpointed batch bytes are not an Arrow IPC stream", e);
    }
  }
}
