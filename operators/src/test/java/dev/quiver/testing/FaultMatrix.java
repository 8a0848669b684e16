package dev.quiver.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The fault matrix as measured. Each test of a fault class is one case: it calls {@link #fault}
 * with what it injects and where, then {@link #answer}, {@link #error} or {@link #canceled} with
 * what the user got once its checks passed. A case whose checks failed is recorded as such by this
 * watcher. After every case the table is rewritten to {@code target/fault-matrix.md} of the module
 * under test: the MiniCluster faults of {@code flink-connector}, the processes killed on a real
 * cluster of {@code examples}.
 *
 * <p>The classes of one test run may run in several JVMs (surefire's {@code forkCount}), and the
 * table is of the whole run: each JVM keeps its cases in {@code target/fault-matrix/RUN.PID.cases},
 * and under a file lock rewrites its own file and the table from the case files of its run. RUN is
 * the system property {@value #RUN_PROPERTY} (the build's start time, set by the parent pom's
 * surefire and failsafe configuration; without it, a run is this JVM). Case files of other runs are
 * deleted, so a run's table holds its cases only, as when one JVM ran them all.
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
  private static final Path CASE_DIR = Path.of("target", "fault-matrix");
  private static final String RUN_PROPERTY = "quiver.test.run";
  private static final String RUN =
      System.getProperty(RUN_PROPERTY, "jvm-" + ProcessHandle.current().pid())
          .replaceAll("[^A-Za-z0-9-]", "_");
  private static final Path OWN_CASES =
      CASE_DIR.resolve(RUN + "." + ProcessHandle.current().pid() + ".cases");
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
    CASES.add(new Case(oneLine(fault), oneLine(where), result, oneLine(cell)));
    fault = null;
    try {
      Files.createDirectories(CASE_DIR);
      try (FileChannel lockFile =
              FileChannel.open(
                  CASE_DIR.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock lock = lockFile.lock()) {
        Files.writeString(OWN_CASES, lines(CASES));
        write(casesOfThisRun());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A case's cells hold no tab or line break: a case file has one case a line, tab-separated. */
  private static String oneLine(String text) {
    return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }

  private static String lines(List<Case> cases) {
    StringBuilder out = new StringBuilder();
    for (Case c : cases) {
      out.append(String.join("\t", c.fault(), c.where(), c.outcome().name(), c.detail()));
      out.append('\n');
    }
    return out.toString();
  }

  /** The cases of every JVM of this run (this one's included); other runs' files are deleted. */
  private static List<Case> casesOfThisRun() throws IOException {
    List<Case> cases = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> listing = Files.list(CASE_DIR)) {
      files = listing.filter(f -> f.getFileName().toString().endsWith(".cases")).toList();
    }
    for (Path file : files) {
      if (!file.getFileName().toString().startsWith(RUN + ".")) {
        Files.deleteIfExists(file);
        continue;
      }
      for (String line : Files.readAllLines(file)) {
        if (line.isEmpty()) {
          continue;
        }
        String[] cells = line.split("\t", 4);
        if (cells.length != 4) {
          throw new IllegalStateException(file + ": not a fault-matrix case: " + line);
        }
        cases.add(new Case(cells[0], cells[1], Outcome.valueOf(cells[2]), cells[3]));
      }
    }
    return cases;
  }

  private static void write(List<Case> cases) throws IOException {
    List<Case> sorted = new ArrayList<>(cases);
    sorted.sort(
        Comparator.comparing(Case::fault).thenComparing(Case::where).thenComparing(Case::detail));
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
    Path next = CASE_DIR.resolve("fault-matrix.md.next");
    Files.writeString(next, out);
    Files.move(next, TABLE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** {@code text} without the test's temporary directories and Flink's random directory names. */
  private static String shorter(String text) {
    return TEMP.matcher(FLINK_IO.matcher(text).replaceAll("flink-io-…")).replaceAll("\\$TMP");
  }
}
