package dev.quiver.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The fault matrix as measured. Each test of a fault class is one case: it calls {@link #fault}
 * with what it injects and where, then {@link #answer}, {@link #error} or {@link #canceled} with
 * what the user got once its checks passed. A case whose checks failed is recorded as such by this
 * watcher. After every case the table is rewritten to {@code target/fault-matrix.md} of the module
 * under test (the classes of one test run share this JVM, so they share one table): the MiniCluster
 * faults of {@code flink-connector}, the processes killed on a real cluster of {@code examples}.
 */
public final class FaultMatrix implements TestWatcher {
  private enum Outcome {
    ANSWER,
    ERROR,
    CANCELED,
    UNDETECTED,
    NOT_CHECKED
  }

  private record Case(String fault, String where, Outcome outcome, String detail) {}

  private static final Path TABLE = Path.of("target", "fault-matrix.md");
  private static final Pattern TEMP =
      Pattern.compile(Pattern.quote(System.getProperty("java.io.tmpdir")) + "/junit-?\\d+");
  private static final Pattern FLINK_IO = Pattern.compile("flink-io-[0-9a-f-]{36}");
  private static final List<Case> CASES = new ArrayList<>();
  private static String fault;
  private static String where;
  private static Outcome outcome;
  private static String detail;

  /** The case the running test injects. */
  public static synchronized void fault(String what, String at) {
    fault = what;
    where = at;
    outcome = null;
    detail = null;
  }

  /** The user got the exact answer. */
  public static synchronized void answer(String what) {
    outcome = Outcome.ANSWER;
    detail = "exact answer (" + what + ")";
  }

  /** The user got this one error line. */
  public static synchronized void error(String message) {
    outcome = Outcome.ERROR;
    detail = "error: `" + message + "`";
  }

  /** The query was cancelled while the fault was in progress. */
  public static synchronized void canceled(String what) {
    outcome = Outcome.CANCELED;
    detail = what;
  }

  /** The fault cannot be detected: the user got a wrong answer (a known limit, recorded). */
  public static synchronized void undetected(String what) {
    outcome = Outcome.UNDETECTED;
    detail = "**" + what + "**";
  }

  @Override
  public synchronized void testSuccessful(ExtensionContext context) {
    add(outcome == null ? Outcome.NOT_CHECKED : outcome, detail);
  }

  @Override
  public synchronized void testFailed(ExtensionContext context, Throwable cause) {
    add(Outcome.NOT_CHECKED, "TEST FAILED: " + cause.getMessage());
  }

  private static synchronized void add(Outcome result, String text) {
    if (fault == null) {
      return;
    }
    String cell = shorter(String.valueOf(text)).replace("|", "\\|").replace('\n', ' ');
    CASES.add(new Case(fault, where, result, cell));
    fault = null;
    write();
  }

  private static void write() {
    List<Case> sorted = new ArrayList<>(CASES);
    sorted.sort(Comparator.comparing(Case::fault).thenComparing(Case::where));
    Map<String, List<Case>> byFault = new LinkedHashMap<>();
    sorted.forEach(c -> byFault.computeIfAbsent(c.fault(), f -> new ArrayList<>()).add(c));
    StringBuilder out = new StringBuilder("# Fault matrix\n\n");
    out.append("| fault | cases | exact answer | one clear error | CANCELED | other | e.g. |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    for (var fault : byFault.entrySet()) {
      Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
      fault.getValue().forEach(c -> counts.merge(c.outcome(), 1L, Long::sum));
      Case example =
          fault.getValue().stream()
              .filter(c -> c.outcome() == Outcome.ERROR)
              .findFirst()
              .orElse(fault.getValue().get(0));
      out.append("| ").append(fault.getKey()).append(" | ").append(fault.getValue().size());
      for (Outcome o : List.of(Outcome.ANSWER, Outcome.ERROR, Outcome.CANCELED)) {
        out.append(" | ").append(counts.getOrDefault(o, 0L));
      }
      long other =
          counts.getOrDefault(Outcome.UNDETECTED, 0L)
              + counts.getOrDefault(Outcome.NOT_CHECKED, 0L);
      out.append(" | ").append(other).append(" | ").append(example.detail()).append(" |\n");
    }
    long injected = 0;
    long good = 0;
    long canceled = 0;
    for (Case c : sorted) {
      switch (c.outcome()) {
        case ANSWER, ERROR -> {
          injected++;
          good++;
        }
        case CANCELED -> canceled++;
        case UNDETECTED, NOT_CHECKED -> injected++;
      }
    }
    out.append('\n').append(injected).append(" injected failures: ").append(good);
    out.append(" exact answers or clear errors; ").append(canceled);
    out.append(" cancellations during a fault: ").append(canceled).append(" CANCELED cleanly\n");
    out.append("\n## Every case\n\n| fault | where | outcome |\n|---|---|---|\n");
    for (Case c : sorted) {
      out.append("| ").append(c.fault()).append(" | ").append(c.where());
      out.append(" | ").append(c.detail()).append(" |\n");
    }
    try {
      Files.createDirectories(TABLE.getParent());
      Files.writeString(TABLE, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code text} without the test's temporary directories and Flink's random directory names. */
  private static String shorter(String text) {
    return TEMP.matcher(FLINK_IO.matcher(text).replaceAll("flink-io-…")).replaceAll("\\$TMP");
  }
}
