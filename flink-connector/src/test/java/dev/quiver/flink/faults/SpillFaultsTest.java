package dev.quiver.flink.faults;

import static dev.quiver.flink.faults.FaultSessions.oneClearError;
import static dev.quiver.flink.faults.FaultSessions.spillFiles;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.ErrorCode;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionHooks;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.state.spill.SpillChannels;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.FaultMatrix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The spill disk fails: it fills up in the middle of a sort's spilling (for good, or once with a
 * restart left), it hangs and the query is cancelled, or the directories spill files go to are
 * unusable. A sort and a hash join of 100,000 rows under a 1 MB budget spill in both their tasks:
 *
 * <pre>
 *   stage 0 (2 tasks): scan ─► sort (spills under io.tmp.dirs) ─MERGE─► stage 1 (1 task) ─► result
 *   scans ─hash─► hash join (2 tasks, spills partitions of both sides) ─► result
 * </pre>
 *
 * Each failure is one line that says spilling failed, in which directory and why; the exact answer
 * when a restart succeeds; never a spill file left behind or leaked Arrow memory. The disk's faults
 * come from {@link FaultyDisk} through the spill channels seam, triggered by a byte count.
 */
@ExtendWith({ArrowLeakCheck.class, FaultMatrix.class})
class SpillFaultsTest {
  /** The operators that spill, each with a query over 100,000 rows that makes it spill. */
  enum Spiller {
    SORT(OrdersFiles.SORT_ALL),
    HASH_JOIN(
        "SELECT a.id, a.customer, b.id, b.amount FROM orders a LEFT JOIN orders b"
            + " ON a.id = b.id + 1 AND a.quantity <> b.quantity");

    final String query;

    Spiller(String query) {
      this.query = query;
    }

    List<List<Object>> canonical(List<List<Object>> rows) {
      return this == SORT ? rows : FaultSessions.sorted(rows);
    }
  }

  @TempDir static Path dir;
  @TempDir static Path tmp;
  private static QuiverSession session;
  private static final Map<Spiller, List<List<Object>>> EXPECTED = new EnumMap<>(Spiller.class);

  @BeforeAll
  static void start() throws Exception {
    Path orders = OrdersFiles.writeSpillingOrders(dir);
    // 1 MB: both spill; a probe of 8,192 rows needs ~240 KB of lookup scratch.
    session = FaultSessions.session(tmp, 1 << 20, () -> null);
    session.registerTable("orders", orders.toString());
    for (Spiller spiller : Spiller.values()) {
      EXPECTED.put(spiller, spiller.canonical(session.sql(spiller.query).rows()));
    }
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @AfterEach
  void noSpillFileLeft() {
    assertThat(spillFiles(tmp)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource
  void aDiskThatFillsUpWhileSpillingFailsWithTheDirectory(Spiller spiller) throws Exception {
    FaultMatrix.fault(
        "spill disk full (No space left on device)", spiller + " spilling, after 64 KB written");
    FaultyDisk full = FaultyDisk.full(64 << 10);
    try (AutoCloseable disk = SpillChannels.replaceWith(full)) {
      String message =
          oneClearError(
              () -> session.sql(spiller.query).rows(),
              "[" + ErrorCode.FILE_WRITE_FAILED + "] Spilling failed: cannot write spill file ",
              " in directory " + tmp,
              "No space left on device",
              " (stage ",
              ", task ");
      FaultMatrix.error(message);
    }
  }

  @ParameterizedTest
  @EnumSource
  void aDiskFullOnceGivesTheExactAnswerAfterARestart(Spiller spiller) throws Exception {
    FaultMatrix.fault(
        "spill disk full once (restarts left)", spiller + " spilling, after 64 KB written");
    FaultyDisk once = FaultyDisk.fullOnce(64 << 10);
    List<List<Object>> rows;
    try (AutoCloseable disk = SpillChannels.replaceWith(once)) {
      rows = spiller.canonical(session.sql(spiller.query).rows());
    }
    assertThat(once.reached.getCount()).as("the disk was full once").isZero();
    assertThat(rows).isEqualTo(EXPECTED.get(spiller));
    FaultMatrix.answer(rows.size() + " rows");
  }

  @ParameterizedTest
  @EnumSource
  void cancellingWhileASpillWriteHangs(Spiller spiller) throws Exception {
    FaultMatrix.fault(
        "cancel while a spill write hangs", spiller + " spilling, after 64 KB written");
    FaultyDisk hung = FaultyDisk.hangs(64 << 10);
    try (AutoCloseable disk = SpillChannels.replaceWith(hung)) {
      SqlResult result = session.sql(spiller.query);
      assertThat(hung.reached.await(60, TimeUnit.SECONDS)).as("spill write reached").isTrue();
      assertThat(spillFiles(tmp)).isNotEmpty();
      result.close();
      assertThat(SessionHooks.jobStatus(session, result)).isEqualTo(JobStatus.CANCELED);
    }
    assertThat(spillFiles(tmp)).isEmpty();
    assertThat(session.sql("SELECT count(*) FROM orders").rows())
        .containsExactly(List.of(100_000L));
    FaultMatrix.canceled("CANCELED; memory and spill files released; the next query answers");
  }

  /**
   * The directories Flink made under io.tmp.dirs at start (flink-io-*) have become regular files (a
   * temp cleaner removed them and something else took the name): spilling cannot make its
   * directory.
   */
  @Test
  void spillDirectoriesThatAreNoLongerDirectoriesFailWithTheDirectory() throws Exception {
    FaultMatrix.fault(
        "spill directory not usable (now a regular file)", "sort spilling, first file");
    Path tmp2 = Files.createDirectories(dir.resolve("tmp2"));
    Configuration flink = new Configuration();
    flink.set(CoreOptions.TMP_DIRS, tmp2.toString());
    try (QuiverSession own =
        QuiverSession.builder()
            .parallelism(2)
            .taskMemoryBudget(256 << 10)
            .configuration(flink)
            .build()) {
      own.registerTable("orders", dir.resolve("orders").toString());
      assertThat(own.sql("SELECT count(*) FROM orders").rows()).hasSize(1); // cluster running
      List<Path> spillRoots;
      try (Stream<Path> paths = Files.list(tmp2)) {
        spillRoots = paths.filter(p -> p.getFileName().toString().startsWith("flink-io-")).toList();
      }
      assertThat(spillRoots).isNotEmpty();
      for (Path root : spillRoots) {
        try (Stream<Path> inside = Files.walk(root)) {
          inside.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Files.writeString(root, "not a directory");
      }
      String message =
          oneClearError(
              () -> own.sql(OrdersFiles.SORT_ALL).rows(),
              "["
                  + ErrorCode.FILE_WRITE_FAILED
                  + "] Spilling failed: cannot create spill directory "
                  + spillRoots.get(0).getParent(),
              "(stage 0, task ");
      FaultMatrix.error(message);
      for (Path root : spillRoots) {
        Files.delete(root);
        Files.createDirectories(root);
      }
    }
  }

  /** io.tmp.dirs names a path under a regular file: nothing can be written there. */
  @Test
  void tmpDirsUnderARegularFileFailWithTheDirectory() throws Exception {
    FaultMatrix.fault("io.tmp.dirs not writable (its parent is a regular file)", "session start");
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    Configuration flink = new Configuration();
    flink.set(CoreOptions.TMP_DIRS, file.resolve("tmp").toString());
    try (QuiverSession own =
        QuiverSession.builder()
            .parallelism(2)
            .taskMemoryBudget(256 << 10)
            .configuration(flink)
            .build()) {
      own.registerTable("orders", dir.resolve("orders").toString());
      String message =
          oneClearError(
              () -> own.sql(OrdersFiles.SORT_ALL).rows(),
              "[" + ErrorCode.FILE_WRITE_FAILED + "]",
              file.resolve("tmp").toString());
      FaultMatrix.error(message);
    }
  }
}
