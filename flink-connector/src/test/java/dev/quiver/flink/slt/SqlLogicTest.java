package dev.quiver.flink.slt;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code .slt} files of {@code src/test/resources/slt}, end to end on local MiniClusters: one
 * test per query or statement record and parallelism, named {@code file:line [p=n]}. Every record
 * runs at parallelism 1 and 2 against the same expected rows, so a distributed plan must agree with
 * a single-task one. Records marked {@code skipif quiver} are reported as skipped with their
 * reason. The two sessions serve every file and close at the end; each test checks that no Arrow
 * memory leaked.
 *
 * <p>Two system properties help whoever works on the engine: {@code -Dslt.only=<regex>} keeps the
 * records whose {@code file:line} matches, and {@code -Dslt.runSkipped=true} runs the {@code skipif
 * quiver} records too, to see whether a fix makes them pass.
 */
@ExtendWith(ArrowLeakCheck.class)
class SqlLogicTest {
  private static final int[] PARALLELISMS = {1, 2};
  private static final Pattern ONLY = Pattern.compile(System.getProperty("slt.only", ".*"));
  private static final boolean RUN_SKIPPED = Boolean.getBoolean("slt.runSkipped");

  @TempDir static Path dataDir;
  private static final List<QuiverSession> sessions = new ArrayList<>();
  private static SqlLogicTestRunner runner;

  @BeforeAll
  static void start() {
    for (int parallelism : PARALLELISMS) {
      sessions.add(newSession(parallelism));
    }
    runner = new SqlLogicTestRunner(dataDir);
  }

  private static QuiverSession newSession(int parallelism) {
    return QuiverSession.builder().parallelism(parallelism).build();
  }

  @AfterAll
  static void stop() {
    RuntimeException failure = null;
    for (QuiverSession session : sessions) {
      try {
        session.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    sessions.clear();
    if (failure != null) {
      throw failure;
    }
  }

  static Stream<Arguments> records() throws Exception {
    List<Arguments> cases = new ArrayList<>();
    for (Map.Entry<String, List<SltRecord>> file : SltFiles.all().entrySet()) {
      for (SltRecord record : file.getValue()) {
        if (record instanceof SltRecord.Table
            || !ONLY.matcher(record.location().toString()).find()) {
          continue; // a table is written and registered on demand by the records after it
        }
        for (int p = 0; p < PARALLELISMS.length; p++) {
          String name = record.location() + " [p=" + PARALLELISMS[p] + "]";
          cases.add(Arguments.of(name, file.getValue(), record, p));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("records")
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void record(String name, List<SltRecord> file, SltRecord record, int session) throws Exception {
    Assumptions.assumeTrue(
        RUN_SKIPPED || record.skipReason("quiver").isEmpty(),
        () -> "skipif quiver: " + record.skipReason("quiver").orElseThrow());
    try {
      runner.run(file, record, sessions.get(session));
    } catch (AssertionError e) {
      if (PlanningGuard.ranAway(e)) {
        // The runaway planner holds the session's lock for good: later records get a new session
        // (the old one is left to the JVM's exit; closing it would wait for that lock). The new
        // session's allocator shows as a leak of this record, which fails anyway.
        sessions.set(session, newSession(PARALLELISMS[session]));
      }
      throw e;
    } catch (Exception | LinkageError e) {
      // Name the record: an exception from outside the runner's checks says nothing of it.
      throw new AssertionError(name + ": " + e, e);
    }
  }
}
