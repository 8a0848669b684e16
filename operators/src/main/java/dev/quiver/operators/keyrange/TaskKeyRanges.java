package dev.quiver.operators.keyrange;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;

/**
 * The key ranges the hash joins of one task have published for the scans of the same task, bound to
 * the thread that runs the task (the scans' readers and the stage's operators share it, see {@code
 * TaskAllocators} for the same arrangement of memory).
 *
 * <pre>
 *   HashJoin, build side complete ─publish(table, column, range)─► board of this thread
 *   scan of table, opening a file ─ranges(table)────────────────► { column: range }
 * </pre>
 *
 * A scan is named by its table; the join only publishes for a table scanned once in its stage (see
 * {@link ProbeKeyOrigins}). Ranges published for the same column intersect. Without an {@link
 * #open() open} board (operators run outside a stage task, in tests) publishing does nothing and
 * there are no ranges. Not thread-safe: one task thread.
 */
public final class TaskKeyRanges {
  private static final ThreadLocal<Board> CURRENT = new ThreadLocal<>();

  private TaskKeyRanges() {}

  /**
   * Opens the board of the current thread (or joins the open one) until the returned scope is
   * closed: a stage task opens it for as long as it runs.
   */
  public static Scope open() {
    Board board = CURRENT.get();
    if (board == null) {
      board = new Board();
      CURRENT.set(board);
    }
    board.references++;
    return new Scope(board);
  }

  /** Publishes {@code range} for column {@code column} of the scan of {@code table}. */
  public static void publish(String table, int column, KeyRange range) {
    requireNonNull(table, "table is null");
    requireNonNull(range, "range is null");
    Board board = CURRENT.get();
    if (board != null) {
      board
          .ranges
          .computeIfAbsent(table, t -> new HashMap<>())
          .merge(column, range, KeyRange::intersect);
    }
  }

  /** The ranges published so far for the scan of {@code table}, by column index; may be empty. */
  public static Map<Integer, KeyRange> ranges(String table) {
    requireNonNull(table, "table is null");
    Board board = CURRENT.get();
    if (board == null) {
      return Map.of();
    }
    Map<Integer, KeyRange> ranges = board.ranges.get(table);
    return ranges == null ? Map.of() : Map.copyOf(ranges);
  }

  private static final class Board {
    private final Map<String, Map<Integer, KeyRange>> ranges = new HashMap<>();
    private int references;
  }

  /** One task's hold on its thread's board; the last to close removes it. */
  public static final class Scope implements AutoCloseable {
    private final Board board;
    private boolean closed;

    private Scope(Board board) {
      this.board = board;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      if (--board.references == 0 && CURRENT.get() == board) {
        CURRENT.remove();
      }
    }
  }
}
