package dev.quiver.server;

import dev.quiver.operators.memory.Allocators;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;

/**
 * A test table as an Arrow IPC file: {@code id BIGINT} 0..rows-1 and {@code grp INT} = id % 10,
 * written in batches of {@link #BATCH} rows.
 */
final class NumbersTable {
  static final int BATCH = 32_768;

  private NumbersTable() {}

  static Path write(Path dir, String name, long rows) throws IOException {
    Path file = dir.resolve(name + ".arrow");
    try (BufferAllocator allocator = Allocators.newChild("test: write " + name);
        BigIntVector id = new BigIntVector("id", allocator);
        IntVector grp = new IntVector("grp", allocator);
        VectorSchemaRoot root = VectorSchemaRoot.of(id, grp);
        FileChannel channel =
            FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
      writer.start();
      for (long start = 0; start < rows; start += BATCH) {
        int count = (int) Math.min(BATCH, rows - start);
        id.allocateNew(count);
        grp.allocateNew(count);
        for (int i = 0; i < count; i++) {
          id.set(i, start + i);
          grp.set(i, (int) ((start + i) % 10));
        }
        root.setRowCount(count);
        writer.writeBatch();
      }
      writer.end();
    }
    return file;
  }
}
