package dev.quiver.operators.kernel;

/**
 * The event-time bookkeeping every window operator keeps (the window aggregate, the window join,
 * the per-window operator): the last watermark, the window end up to which windows are complete,
 * and the rows dropped because their window was complete when they came (late) or because they had
 * no window end.
 *
 * <pre>
 *   advance(w) ─► w > watermark? watermark = w, completeUpTo = (w + 1) ms in µs ─► true: run them
 *              └► else nothing (a watermark that does not advance) ─────────────► false
 *   count(late, nulls) ─► the counters, from each split ({@link WindowSplitter})
 * </pre>
 *
 * A window {@code [start, end)} is complete once {@code end ≤ (watermark + 1) · 1000} µs ({@link
 * WindowSplitter#completeUpTo}: Flink's rule); before the first watermark nothing is. The
 * operators' snapshots hold the watermark and both counters; {@link #restore} takes them back. Not
 * thread-safe.
 */
public final class WindowClock {
  private long watermark = Long.MIN_VALUE;
  private long completeUpTo = Long.MIN_VALUE; // µs: windows ending at or before it are complete
  private long lateRows;
  private long rowsWithoutWindow;

  /**
   * Moves to watermark {@code millis} if it is later than the last one, and says whether it did
   * (then the windows ending at or before {@link #completeUpTo()} are complete).
   */
  public boolean advance(long millis) {
    if (millis <= watermark) {
      return false;
    }
    watermark = millis;
    completeUpTo = WindowSplitter.completeUpTo(millis);
    return true;
  }

  /** The last watermark, {@code Long.MIN_VALUE} before the first. */
  public long watermark() {
    return watermark;
  }

  /** The window end (µs) at or before which windows are complete: their rows are late. */
  public long completeUpTo() {
    return completeUpTo;
  }

  /** Counts {@code late} rows of complete windows and {@code withoutWindow} rows without one. */
  public void count(long late, long withoutWindow) {
    lateRows += late;
    rowsWithoutWindow += withoutWindow;
  }

  /** Rows dropped because their window was complete when they came. */
  public long lateRows() {
    return lateRows;
  }

  /** Rows dropped because their window end was NULL. */
  public long rowsWithoutWindow() {
    return rowsWithoutWindow;
  }

  /** Takes back a snapshot's watermark and counters. */
  public void restore(long watermark, long lateRows, long rowsWithoutWindow) {
    this.watermark = watermark;
    this.completeUpTo = WindowSplitter.completeUpTo(watermark);
    this.lateRows = lateRows;
    this.rowsWithoutWindow = rowsWithoutWindow;
  }
}
