package dev.quiver.formats;

import dev.quiver.testing.BatchRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** Writing and reading whole files in tests. */
public final class TestFiles {
  private TestFiles() {}

  /** Writes {@code batches} (closing them) to {@code target} with {@link FileWriters}. */
  public static long write(
      Path target,
      FileFormat format,
      Schema schema,
      List<VectorSchemaRoot> batches,
      BufferAllocator allocator) {
    return FileWriters.write(new ListReader(allocator, schema, batches), format, target, allocator);
  }

  /** All rows of the table at {@code location}, read with {@code scan} of its default schema. */
  public static List<List<Object>> readAll(
      String location, CsvOptions csv, BufferAllocator allocator) {
    FileTable table = FileTable.open(location, Optional.empty(), csv, Optional.empty());
    return read(table, table.scan(names(table.schema()), Optional.empty()), allocator);
  }

  public static List<List<Object>> read(FileTable table, ScanSpec scan, BufferAllocator allocator) {
    List<List<Object>> rows = new ArrayList<>();
    try (FileBatchReader reader = table.reader(scan, allocator)) {
      forEach(reader, batch -> rows.addAll(BatchRows.rows(batch)));
    }
    return rows;
  }

  /** Passes every batch of {@code reader} to {@code action}, closing it afterwards. */
  public static void forEach(FileBatchReader reader, Consumer<VectorSchemaRoot> action) {
    while (true) {
      VectorSchemaRoot batch = reader.next();
      if (batch == null) {
        return;
      }
      try (batch) {
        action.accept(batch);
      }
    }
  }

  /** Asserts equal rows, reporting the first difference rather than two huge lists. */
  public static void assertSameRows(List<List<Object>> actual, List<List<Object>> expected) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      if (!actual.get(i).equals(expected.get(i))) {
        throw new AssertionError(
            "row "
                + i
                + " differs:\n  actual:   "
                + actual.get(i)
                + "\n  expected: "
                + expected.get(i));
      }
    }
    if (actual.size() != expected.size()) {
      throw new AssertionError(actual.size() + " rows, expected " + expected.size());
    }
  }

  public static List<String> names(Schema schema) {
    List<String> names = new ArrayList<>();
    schema.getFields().forEach(f -> names.add(f.getName()));
    return names;
  }

  /** An Arrow reader over batches in memory; each batch is moved into the reader and closed. */
  public static class ListReader extends ArrowReader {
    private final Schema schema;
    private final List<VectorSchemaRoot> batches;
    private int next;

    ListReader(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches) {
      super(allocator);
      this.schema = schema;
      this.batches = new ArrayList<>(batches);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (next == batches.size()) {
        return false;
      }
      try (VectorSchemaRoot batch = batches.get(next++)) {
        VectorSchemaRoot root = getVectorSchemaRoot();
        for (int i = 0; i < root.getFieldVectors().size(); i++) {
          batch.getVector(i).makeTransferPair(root.getVector(i)).transfer();
        }
        root.setRowCount(batch.getRowCount());
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {
      while (next < batches.size()) {
        batches.get(next++).close();
      }
    }

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
