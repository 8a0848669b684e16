package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live line on stderr while a query runs, redrawn in place with {@code \r}:
 *
 * <pre>
 *   q05 (3/22)  2.4 s  stages 2/5  12,345 rows
 * </pre>
 *
 * Drawn only for a person at a terminal ({@link Terminal#interactive()}) and only once the work has
 * taken half a second, then five times a second by a daemon thread; {@link #close()} erases it.
 * Whoever prints to the same terminal meanwhile does it inside {@link #quiet}, which erases the
 * line first (the next tick draws it again). A disabled progress writes nothing at all. The stages
 * done / total of the query's job come from {@link #watch}, asked by the ticker ({@link JobStages}
 * asks the cluster at most twice a second).
 */
final class Progress implements AutoCloseable {
  private static final long DELAY_NANOS = 500_000_000;
  private static final long PERIOD_MILLIS = 200;
  private static final int MAX_WIDTH = 79;

  /** Work done while the progress line is erased; may write to the terminal. */
  interface Output {
    void write() throws java.io.IOException;
  }

  private final PrintWriter err;
  private final boolean enabled;
  private final boolean countRows;
  private final long delayNanos;
  private final AtomicLong rows = new AtomicLong();
  private volatile String label;
  private volatile JobStages stages; // the running query's, or null
  private volatile long startNanos = System.nanoTime();
  private ScheduledExecutorService ticker;
  private int shown; // characters of the line now on the terminal
  private boolean closed;

  /**
   * A progress line drawn by whoever calls {@link #draw()}.
   *
   * @param delayNanos how long the work goes on before a line is drawn
   */
  Progress(PrintWriter err, boolean enabled, String label, boolean countRows, long delayNanos) {
    this.err = requireNonNull(err, "err is null");
    this.enabled = enabled;
    this.label = requireNonNull(label, "label is null");
    this.countRows = countRows;
    this.delayNanos = delayNanos;
  }

  /** Starts a progress line that counts rows, drawn if {@code enabled}. */
  static Progress start(PrintWriter err, boolean enabled, String label) {
    return start(err, enabled, label, true);
  }

  /** Starts a progress line, with the row count or only the elapsed time. */
  static Progress start(PrintWriter err, boolean enabled, String label, boolean countRows) {
    Progress progress = new Progress(err, enabled, label, countRows, DELAY_NANOS);
    if (enabled) {
      progress.ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread thread = new Thread(r, "quiver-progress");
                thread.setDaemon(true);
                return thread;
              });
      progress.ticker.scheduleAtFixedRate(
          progress::draw, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }
    return progress;
  }

  /** Counts {@code count} more rows. */
  void addRows(long count) {
    rows.addAndGet(count);
  }

  /** Shows the stages done / total of the job now running (null: none). */
  void watch(JobStages job) {
    stages = job;
  }

  /** Whether the line is drawn at all: reading a job's stages is worth it only then. */
  boolean enabled() {
    return enabled;
  }

  /** Starts over for the next piece of work: new label, elapsed time and rows from zero. */
  void restart(String newLabel) {
    label = requireNonNull(newLabel, "newLabel is null");
    stages = null;
    rows.set(0);
    startNanos = System.nanoTime();
  }

  /** Erases the line, runs {@code output} (which may print), and lets the next tick redraw. */
  synchronized void quiet(Output output) throws java.io.IOException {
    erase();
    output.write();
  }

  /** Prints {@code line} on the error stream, the progress line erased first. */
  synchronized void note(String line) {
    erase();
    err.println(line);
    err.flush();
  }

  /** The text of the line now. */
  String text() {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    JobStages job = stages;
    String stageText =
        job == null ? "" : String.format(Locale.ROOT, "  stages %d/%d", job.done(), job.total());
    String text =
        countRows
            ? String.format(
                Locale.ROOT, "%s  %.1f s%s  %,d rows", label, seconds, stageText, rows.get())
            : String.format(Locale.ROOT, "%s  %.1f s%s", label, seconds, stageText);
    return text.length() > MAX_WIDTH ? text.substring(0, MAX_WIDTH) : text;
  }

  /** Draws the line over the previous one, once the work has taken a while (the ticker). */
  synchronized void draw() {
    if (!enabled || closed) {
      return;
    }
    if (shown == 0 && System.nanoTime() - startNanos < delayNanos) {
      return; // quick work gets no line at all
    }
    String text = text();
    err.print('\r' + text + " ".repeat(Math.max(0, shown - text.length())));
    err.flush();
    shown = Math.max(shown, text.length());
  }

  private void erase() {
    if (shown > 0) {
      err.print('\r' + " ".repeat(shown) + '\r');
      err.flush();
      shown = 0;
    }
  }

  /** Stops drawing and erases the line. Idempotent. */
  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    closed = true;
    erase();
  }
}
