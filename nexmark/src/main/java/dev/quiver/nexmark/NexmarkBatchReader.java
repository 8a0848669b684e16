package dev.quiver.nexmark;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One kind's events of an {@link EventSplit} as Arrow batches of {@link NexmarkSchemas}, in event
 * order (so each batch's event times are non-decreasing and not below the previous batch's).
 *
 * <pre>
 *   split: 0..999 | 2000..2999 | ...   (task 0 of 2)
 *   kind BID: n % 50 in 4..49 ─► rows of the bid batch; other kinds skipped without generating
 * </pre>
 *
 * <p>{@link #position()} is the next event number to look at: a reader made with that position
 * continues exactly where this one stopped (a source's checkpoint).
 */
public final class NexmarkBatchReader {
  private final NexmarkGenerator generator;
  private final EventKind kind;
  private final EventSplit split;
  private final int batchRows;
  private final BufferAllocator allocator;
  private final Schema schema;
  private final KindColumns columns;
  private long position;

  /**
   * A reader of batches of {@link NexmarkSchemas#of(EventKind)} (millisecond timestamps).
   *
   * @param position the first event number to consider (0, or a checkpointed {@link #position()})
   */
  public NexmarkBatchReader(
      NexmarkConfig config,
      EventKind kind,
      EventSplit split,
      long position,
      int batchRows,
      BufferAllocator allocator) {
    this(config, kind, split, position, batchRows, TimeUnit.MILLISECOND, allocator);
  }

  /**
   * A reader of batches of {@link NexmarkSchemas#of(EventKind, TimeUnit)}: timestamps in {@code
   * timeUnit}, milli- or microseconds.
   *
   * @param position the first event number to consider (0, or a checkpointed {@link #position()})
   */
  public NexmarkBatchReader(
      NexmarkConfig config,
      EventKind kind,
      EventSplit split,
      long position,
      int batchRows,
      TimeUnit timeUnit,
      BufferAllocator allocator) {
    if (batchRows <= 0) {
      throw new IllegalArgumentException("batchRows must be positive: " + batchRows);
    }
    this.generator = new NexmarkGenerator(config);
    this.kind = requireNonNull(kind, "kind is null");
    this.split = requireNonNull(split, "split is null");
    this.batchRows = batchRows;
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.schema = NexmarkSchemas.of(kind, requireNonNull(timeUnit, "timeUnit is null"));
    this.columns = KindColumns.of(kind, timeUnit == TimeUnit.MICROSECOND ? 1000 : 1);
    this.position = position;
  }

  /** The next batch (the caller owns it), or null when the split has no event of the kind left. */
  public VectorSchemaRoot next() {
    long n = split.nextFrom(position);
    while (n != EventSplit.END && generator.kind(n) != kind) {
      n = split.nextFrom(n + 1);
    }
    if (n == EventSplit.END) {
      position = split.events();
      return null;
    }
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    try {
      columns.start(root, batchRows);
      int rows = 0;
      while (n != EventSplit.END) {
        if (generator.kind(n) == kind) {
          if (rows == batchRows) {
            break;
          }
          columns.write(generator, n, rows++);
        }
        n = split.nextFrom(n + 1);
      }
      position = n == EventSplit.END ? split.events() : n;
      columns.finish(rows);
      root.setRowCount(rows);
      return root;
    } catch (RuntimeException | Error e) {
      root.close();
      throw e;
    }
  }

  /** The next event number this reader would look at. */
  public long position() {
    return position;
  }

  /** Whether no event of the split is left (the last {@link #next} returned null). */
  public boolean finished() {
    return position >= split.events();
  }

  public EventKind kind() {
    return kind;
  }
}
