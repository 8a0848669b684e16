package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.SqlResult;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.jline.utils.Signals;

/**
 * {@code quiver sql --savepoint-dir DIR}: Ctrl-C (SIGINT) or SIGTERM while a streaming query or a
 * streaming {@code INSERT} runs stops its job with a savepoint in DIR instead of cancelling it, and
 * the command ends as if the stream had: a query's rows emitted before the savepoint are written
 * and the output committed; an INSERT's sink has committed what the savepoint holds and its rows
 * written are printed; the exit status is 0. {@code --from-savepoint PATH} starts the query or the
 * INSERT again from there.
 *
 * <pre>
 *   SIGINT/SIGTERM ─► stop-with-savepoint (this handler's thread; returns when it is complete)
 *   the command's thread: result.hasNext() ... false ─► output committed ─► "stopped with a
 *                         savepoint: PATH" ─► no further statement ─► exit 0
 * </pre>
 *
 * The handlers replace the JVM's for the two signals (which would exit with status 128 + signal and
 * run {@link CancelOnExit}'s hook) while the command runs. Whenever the signal finds nothing to
 * stop with a savepoint (no query yet, a batch query or INSERT), or the savepoint fails (its
 * one-line reason is printed first), or it is a second signal while the savepoint is taken, the
 * handler exits as the JVM would, and the hook cancels the job.
 */
final class SavepointOnStop implements AutoCloseable {
  /** The signals a user stops the command with, and the JVM's exit status for each. */
  private static final Map<String, Integer> SIGNALS = Map.of("INT", 128 + 2, "TERM", 128 + 15);

  private final String directory;
  private final PrintWriter err;
  private final IntConsumer exit;
  private final Map<String, Object> previous = new LinkedHashMap<>();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final CountDownLatch taken = new CountDownLatch(1);
  private volatile SqlResult query;
  private volatile String savepoint;

  /**
   * @param directory where Flink makes the savepoint's directory: a URI ({@code s3://...}), or a
   *     path of this machine, made absolute (a relative path is this process's, not the cluster's)
   */
  SavepointOnStop(String directory, PrintWriter err, IntConsumer exit) {
    this.directory =
        directory.contains(":/")
            ? directory
            : Path.of(directory).toAbsolutePath().toUri().toString();
    this.err = requireNonNull(err, "err is null");
    this.exit = requireNonNull(exit, "exit is null");
  }

  /**
   * Handles SIGINT and SIGTERM until {@link #close()}. Where the JVM does not let a program handle
   * them (-Xrs), says so on {@code err}: a stop then cancels the query.
   */
  static SavepointOnStop install(String directory, PrintWriter err) {
    SavepointOnStop stop = new SavepointOnStop(directory, err, System::exit);
    for (Map.Entry<String, Integer> signal : SIGNALS.entrySet()) {
      Object old = Signals.register(signal.getKey(), () -> stop.stop(signal.getValue()));
      if (old == null) {
        err.println(
            "quiver: --savepoint-dir: this JVM does not let quiver handle SIG"
                + signal.getKey()
                + ": it cancels the query");
        err.flush();
      } else {
        stop.previous.put(signal.getKey(), old);
      }
    }
    return stop;
  }

  /**
   * The query whose job a signal stops now: the result the command reads, or null between queries.
   */
  void running(SqlResult result) {
    query = result;
  }

  /**
   * Whether a signal has stopped a query with a savepoint: the command runs nothing after it. While
   * a signal's savepoint is being taken, waits until it is: the result may end (its job has
   * finished) a moment before the cluster answers the stop.
   */
  boolean stopped() {
    if (stopping.get()) {
      boolean interrupted = false;
      while (true) {
        try {
          taken.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return savepoint != null;
  }

  /**
   * The savepoint a signal stopped the query with, as a path for a local one, else its URI; waits
   * as {@link #stopped()} does.
   */
  Optional<String> savepoint() {
    return stopped() ? Optional.of(display(savepoint)) : Optional.empty();
  }

  /**
   * What a signal does (the seam of tests): stops the running streaming query with a savepoint and
   * returns once it is taken, or exits the JVM with {@code status}.
   */
  void stop(int status) {
    SqlResult result = query;
    if (result == null || !result.streaming() || !stopping.compareAndSet(false, true)) {
      exit.accept(status);
      return;
    }
    err.println(
        "quiver: interrupted: stopping the query with a savepoint (Ctrl-C again cancels it)");
    err.flush();
    try {
      savepoint = result.stopWithSavepoint(directory);
    } catch (RuntimeException e) {
      err.println("quiver: " + Errors.message(e));
      err.flush();
      taken.countDown();
      exit.accept(status);
    } finally {
      taken.countDown();
    }
  }

  /** The JVM's handlers again: a signal after the command exits as it would have. */
  @Override
  public void close() {
    previous.forEach(Signals::unregister);
    previous.clear();
  }

  /** {@code file:/a/b} as {@code /a/b}: what a user types after --from-savepoint. */
  private static String display(String savepoint) {
    if (savepoint.startsWith("file:")) {
      try {
        return Path.of(URI.create(savepoint)).toString();
      } catch (IllegalArgumentException e) {
        return savepoint; // not a URI this file system reads: as Flink gave it
      }
    }
    return savepoint;
  }
}
