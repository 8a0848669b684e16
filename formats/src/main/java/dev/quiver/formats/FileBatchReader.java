package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a task's splits as Arrow batches, one file at a time and streaming: only the batches in
 * flight (Arrow's read-ahead) are in memory, never a whole file.
 *
 * <p>Each batch has the scan's {@linkplain ScanSpec#outputSchema() output schema} and at most
 * {@link ScanSpec#batchRows()} rows, is allocated from the caller's allocator and is owned by the
 * caller, who closes it. Empty batches are not returned. With a predicate, Parquet row groups whose
 * statistics rule it out are not read and some non-matching rows may be dropped early; the caller
 * still filters. Errors are {@link QuiverException}s naming the file (and for CSV the line and
 * column).
 *
 * <p>Not thread-safe: one task reads with one reader.
 */
public final class FileBatchReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileBatchReader.class);

  private final List<FileSplit> splits;
  private final ScanSpec spec;
  private final BufferAllocator allocator;
  private final Schema output;
  private int nextSplit;
  private ScannedFile current;
  private VectorSchemaRoot pending;
  private int pendingOffset;
  private boolean closed;

  /**
   * @throws QuiverException {@link ErrorCode#UNSUPPORTED_TYPE} if a projected column has a type
   *     Quiver cannot compute with
   */
  public FileBatchReader(List<FileSplit> splits, ScanSpec spec, BufferAllocator allocator) {
    this.splits = List.copyOf(requireNonNull(splits, "splits is null"));
    this.spec = requireNonNull(spec, "spec is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.output = spec.outputSchema();
    for (Field field : output.getFields()) {
      if (!FileTypes.supported(field)) {
        throw new QuiverException(
            ErrorCode.UNSUPPORTED_TYPE,
            "Column '"
                + field.getName()
                + "' has type "
                + field.getType()
                + ", which Quiver cannot read; leave it out of the query");
      }
    }
  }

  /** The schema of every batch. */
  public Schema schema() {
    return output;
  }

  /** The next batch (owned by the caller), or null when every split has been read. */
  public VectorSchemaRoot next() {
    if (closed) {
      throw new IllegalStateException("reader is closed");
    }
    while (true) {
      if (pending != null) {
        return nextSlice();
      }
      if (current == null) {
        if (nextSplit == splits.size()) {
          return null;
        }
        current = new ScannedFile(splits.get(nextSplit++));
      }
      VectorSchemaRoot batch = current.next();
      if (batch == null) {
        current.close();
        current = null;
      } else if (batch.getRowCount() > 0) {
        pending = transfer(batch);
        pendingOffset = 0;
      }
    }
  }

  // Arrow's CSV reader may return more rows than asked for; larger batches are cut.
  private VectorSchemaRoot nextSlice() {
    int rows = pending.getRowCount();
    if (pendingOffset == 0 && rows <= spec.batchRows()) {
      VectorSchemaRoot whole = pending;
      pending = null;
      return whole;
    }
    int length = Math.min(spec.batchRows(), rows - pendingOffset);
    List<FieldVector> vectors = new ArrayList<>(output.getFields().size());
    try {
      for (FieldVector vector : pending.getFieldVectors()) {
        TransferPair pair = vector.getTransferPair(allocator);
        pair.splitAndTransfer(pendingOffset, length);
        vectors.add((FieldVector) pair.getTo());
      }
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    pendingOffset += length;
    if (pendingOffset == rows) {
      pending.close();
      pending = null;
    }
    return new VectorSchemaRoot(output.getFields(), vectors, length);
  }

  // Moves the reader's buffers into a root the caller owns, under the output field names.
  private VectorSchemaRoot transfer(VectorSchemaRoot batch) {
    List<FieldVector> vectors = new ArrayList<>(output.getFields().size());
    for (int i = 0; i < output.getFields().size(); i++) {
      TransferPair pair = batch.getVector(i).getTransferPair(output.getFields().get(i), allocator);
      pair.transfer();
      vectors.add((FieldVector) pair.getTo());
    }
    return new VectorSchemaRoot(output.getFields(), vectors, batch.getRowCount());
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (pending != null) {
      pending.close();
      pending = null;
    }
    if (current != null) {
      current.close();
      current = null;
    }
  }

  /** One open file: Arrow's dataset, scanner and batch reader over it. */
  private final class ScannedFile implements AutoCloseable {
    private final FileSplit split;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private ArrowReader reader;

    ScannedFile(FileSplit split) {
      this.split = split;
      split.version().check(Path.of(split.path()));
      try {
        open();
      } catch (RuntimeException e) {
        close();
        throw FileErrors.translate(e, split.path(), split.format(), physicalNames());
      }
    }

    private void open() {
      boolean generatedNames = split.format() == FileFormat.CSV && !spec.csv().header();
      Schema table = generatedNames ? Datasets.withGeneratedNames(spec.schema()) : spec.schema();
      var factory =
          Datasets.open(
              allocator,
              split.format(),
              split.path(),
              spec.csv(),
              split.format() == FileFormat.CSV ? table : null);
      resources.add(factory);
      // Opening with the table schema makes Arrow cast to Quiver's types while it reads.
      var dataset = factory.finish(table);
      resources.add(dataset);
      String[] columns = new String[spec.columns().size()];
      for (int i = 0; i < columns.length; i++) {
        int index = spec.schema().getFields().indexOf(spec.field(spec.columns().get(i)));
        columns[i] = table.getFields().get(index).getName();
      }
      Optional<ByteBuffer> filter =
          split.format() == FileFormat.PARQUET && spec.predicate().isPresent()
              ? SubstraitFilter.encode(spec.predicate().get(), table)
              : Optional.empty();
      ScanOptions.Builder options =
          new ScanOptions.Builder(spec.batchRows()).columns(Optional.of(columns));
      filter.ifPresent(options::substraitFilter);
      Scanner scanner;
      try {
        scanner = dataset.newScan(options.build());
      } catch (RuntimeException e) {
        if (filter.isEmpty()) {
          throw e;
        }
        // Skipping is optional: a filter this Arrow version rejects only costs the skipping.
        LOG.warn("{}: scanning without the skipping filter ({})", split.path(), e.getMessage());
        scanner =
            dataset.newScan(
                new ScanOptions.Builder(spec.batchRows()).columns(Optional.of(columns)).build());
      }
      resources.add(scanner);
      reader = scanner.scanBatches();
      resources.add(reader);
    }

    VectorSchemaRoot next() {
      try {
        return reader.loadNextBatch() ? reader.getVectorSchemaRoot() : null;
      } catch (IOException | RuntimeException e) {
        RuntimeException cause =
            e instanceof RuntimeException r ? r : new RuntimeException(e.getMessage(), e);
        throw FileErrors.translate(cause, split.path(), split.format(), physicalNames());
      }
    }

    private List<String> physicalNames() {
      List<String> names = new ArrayList<>();
      spec.schema().getFields().forEach(f -> names.add(f.getName()));
      return names;
    }

    @Override
    public void close() {
      for (int i = resources.size() - 1; i >= 0; i--) {
        try {
          resources.get(i).close();
        } catch (Exception e) {
          // Closing native handles fails only after an earlier error, which is already reported.
        }
      }
      resources.clear();
    }
  }
}
