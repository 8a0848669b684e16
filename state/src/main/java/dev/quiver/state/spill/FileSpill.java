package dev.quiver.state.spill;

import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;

/**
 * A finished spill file; closing it closes its readers (the one {@link #open} gave and the {@link
 * #reread} ones still open) and deletes it.
 */
final class FileSpill implements SpillFile {
  private final FileSpillSpace space;
  private final Path file;
  private final long rows;
  private final int batches;
  private final long bytes;
  private FileSpillReader reader;
  private final List<FileSpillReader> rereads = new ArrayList<>(); // closed ones pruned
  private boolean opened;
  private boolean closed;

  FileSpill(FileSpillSpace space, Path file, long rows, int batches, long bytes) {
    this.space = space;
    this.file = file;
    this.rows = rows;
    this.batches = batches;
    this.bytes = bytes;
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public int batches() {
    return batches;
  }

  @Override
  public long bytes() {
    return bytes;
  }

  @Override
  public synchronized SpillReader open(BufferAllocator allocator) {
    if (opened || closed) {
      throw new IllegalStateException("spill file " + file + " was already opened or closed");
    }
    opened = true;
    reader = new FileSpillReader(file, allocator);
    return reader;
  }

  @Override
  public synchronized SpillReader reread(BufferAllocator allocator) {
    if (closed) {
      throw new IllegalStateException("spill file " + file + " is closed");
    }
    rereads.removeIf(FileSpillReader::isClosed);
    FileSpillReader again = new FileSpillReader(file, allocator);
    rereads.add(again);
    return again;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      List<FileSpillReader> open = new ArrayList<>(rereads);
      rereads.clear();
      if (reader != null) {
        open.add(reader);
      }
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(open));
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw new IllegalStateException("cannot delete spill file " + file, e);
      } finally {
        space.unregister(file);
      }
    }
  }

  @Override
  public String toString() {
    return file + " (" + rows + " rows, " + bytes + " bytes)";
  }
}
