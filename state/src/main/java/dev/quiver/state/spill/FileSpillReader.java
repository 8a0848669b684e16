package dev.quiver.state.spill;

import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.spill.SpillReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Reads a spill file's batches one at a time with Arrow's stream reader, which decodes whichever
 * codec each batch names. Each batch's buffers move out of the reader into a new root the caller
 * owns, so the reader never holds more than the batch it is decoding.
 */
final class FileSpillReader implements SpillReader {
  private final Path file;
  private final BufferAllocator allocator;
  private final ArrowStreamReader reader;
  private boolean closed;

  FileSpillReader(Path file, BufferAllocator allocator) {
    this.file = file;
    this.allocator = allocator;
    try {
      this.reader =
          new ArrowStreamReader(
              FileChannel.open(file, StandardOpenOption.READ),
              allocator,
              CommonsCompressionFactory.INSTANCE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open spill file " + file, e);
    }
  }

  @Override
  public VectorSchemaRoot next() {
    if (closed) {
      throw new IllegalStateException("spill reader of " + file + " is closed");
    }
    try {
      if (!reader.loadNextBatch()) {
        return null;
      }
      return BatchTransfer.move(reader.getVectorSchemaRoot(), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read spill file " + file, e);
    }
  }

  /** Whether {@link #close} was called. */
  boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      reader.close(); // closes the file channel and frees the reader's own buffers
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close spill file " + file, e);
    }
  }
}
