package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.QuiverSession;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * Ctrl-C while a command runs a query: the JVM runs its shutdown hooks on SIGINT (and SIGTERM), and
 * this one closes the command's session, which cancels the running query's Flink job and waits
 * until its tasks have ended (their Arrow memory released, their spill files deleted) before a
 * local MiniCluster stops. Without it the JVM would exit under the running job: a remote cluster
 * would keep running it, a local one would die with spill files being written.
 *
 * <pre>{@code
 * try (QuiverSession quiver = session.open(); CancelOnExit exit = CancelOnExit.guard(quiver, err)) {
 *   ... run queries ...
 * } // the hook is removed: a normal end needs none
 * }</pre>
 *
 * The hook waits at most {@link #WAIT}: an exiting JVM should not hang on a cluster that does not
 * answer.
 */
final class CancelOnExit implements AutoCloseable {
  static final Duration WAIT = Duration.ofSeconds(15);

  /** Set when a hook starts cancelling: the command's own failure is then its cancellation. */
  private static volatile boolean cancelling;

  private final Thread hook;

  private CancelOnExit(Thread hook) {
    this.hook = hook;
  }

  /** Closes {@code session} when the JVM is stopped before this guard is closed. */
  static CancelOnExit guard(QuiverSession session, PrintWriter err) {
    requireNonNull(session, "session is null");
    requireNonNull(err, "err is null");
    Thread hook =
        new Thread(
            () -> {
              cancelling = true;
              err.println("quiver: interrupted: cancelling the query");
              err.flush();
              Thread closer = new Thread(session::close, "quiver: close session");
              closer.setDaemon(true);
              closer.start();
              try {
                closer.join(WAIT.toMillis());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              err.println(
                  closer.isAlive()
                      ? "quiver: the query did not end within " + WAIT.toSeconds() + " s"
                      : "quiver: query cancelled");
              err.flush();
            },
            "quiver: cancel on exit");
    Runtime.getRuntime().addShutdownHook(hook);
    return new CancelOnExit(hook);
  }

  /**
   * Whether the JVM is exiting and a hook cancels the query: the command then fails because its job
   * was cancelled, which the hook reports, so the command's error is not worth a line.
   */
  static boolean cancelling() {
    return cancelling;
  }

  /** The command ended on its own: nothing to cancel at exit. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting and the hook runs (or ran): let it finish its work
    }
  }
}
