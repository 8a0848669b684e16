package dev.quiver.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionHooks;
import dev.quiver.flink.session.SqlResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** What the fault tests share: a session with restarts and a fault hook, and their checks. */
final class FaultSessions {
  private FaultSessions() {}

  /**
   * A local session of 2 tasks per stage whose Flink restarts a failed region twice (10 ms apart),
   * spilling under {@code tmp}, with the fault {@code current} holds injected into each query.
   */
  static QuiverSession session(Path tmp, long memoryBudget, Supplier<FaultOperator.Fault> current) {
    return session(tmp, 2, memoryBudget, current);
  }

  /** {@link #session(Path, long, Supplier)} with {@code parallelism} tasks per stage. */
  static QuiverSession session(
      Path tmp, int parallelism, long memoryBudget, Supplier<FaultOperator.Fault> current) {
    Configuration flink = new Configuration();
    flink.set(CoreOptions.TMP_DIRS, tmp.toString());
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    var builder = QuiverSession.builder().parallelism(parallelism).configuration(flink);
    if (memoryBudget > 0) {
      builder.taskMemoryBudget(memoryBudget);
    }
    return SessionHooks.withHook(builder, FaultOperator.hook(current)).build();
  }

  /** {@code rows} in a canonical order, for queries without ORDER BY. */
  static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }

  /**
   * The one error the user gets from {@code call}: a {@link QuiverException} whose message is one
   * line containing every fragment; returns that line.
   */
  static String oneClearError(ThrowingCallable call, String... fragments) {
    QuiverException[] caught = new QuiverException[1];
    org.assertj.core.api.Assertions.assertThatThrownBy(call)
        .isInstanceOfSatisfying(QuiverException.class, e -> caught[0] = e)
        .hasMessageContainingAll(fragments);
    String message = caught[0].getMessage();
    assertThat(message).as("one line").doesNotContain("\n");
    return message;
  }

  /** Spill files (and spill directories) under {@code tmp}. */
  static List<Path> spillFiles(Path tmp) {
    while (true) {
      try (Stream<Path> files = Files.walk(tmp)) {
        return files.filter(p -> p.getFileName().toString().contains("spill")).toList();
      } catch (UncheckedIOException | NoSuchFileException e) {
        // a file vanished while walking: walk again
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Cancels {@code result} (whose fault is blocking) once the fault is reached, and checks that the
   * job ends CANCELED within seconds.
   */
  static void cancelWhenReached(QuiverSession session, SqlResult result, FaultOperator.Fault fault)
      throws Exception {
    assertThat(fault.reached().await(60, TimeUnit.SECONDS)).as("fault reached").isTrue();
    assertThat(SessionHooks.jobStatus(session, result)).isEqualTo(JobStatus.RUNNING);
    result.close();
    assertThat(SessionHooks.jobStatus(session, result)).isEqualTo(JobStatus.CANCELED);
  }
}
