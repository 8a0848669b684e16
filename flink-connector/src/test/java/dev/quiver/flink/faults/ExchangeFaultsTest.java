package dev.quiver.flink.faults;

import static dev.quiver.flink.faults.FaultSessions.oneClearError;
import static dev.quiver.flink.faults.FaultSessions.sorted;
import static dev.quiver.flink.faults.FaultSessions.spillFiles;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.ErrorCode;
import dev.quiver.flink.faults.FaultOperator.Fault;
import dev.quiver.flink.faults.FaultOperator.Kind;
import dev.quiver.flink.faults.FaultOperator.Where;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.StageInput;
import dev.quiver.stage.Stage;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.FaultMatrix;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task of a stage that reads each kind of exchange input fails at its first output batch, at its
 * second (after results have left it), and at the end of its input. With a restart left the query
 * gives exactly the answer of a run without the fault; failing in every attempt, it ends in one
 * error line naming the stage and the task. No case leaks Arrow memory or leaves a spill file.
 *
 * <pre>
 *   FORWARD    scan ─► sort ─merge─► top-k (shared, 1 task) ═forward═► filters, union (stage 2) ◄ fault
 *   SHUFFLE    scan ─► partial agg ─hash─► final agg (stage 1) ◄ fault
 *   BROADCAST  scan ─► agg ─hash─► agg ─broadcast─► join with chained probe scan (stage 2) ◄ fault
 *   MERGE      scan ─► sort ─merge─► stage 1 (1 task) ◄ fault
 *   RESCALE    scan ─rescale─► limit (stage 1, 1 task) ◄ fault
 * </pre>
 *
 * FORWARD: a CTE used twice is one shared stage (its top-k, worth computing once), read FORWARD by
 * the stage that filters and unions its two uses.
 */
@ExtendWith({ArrowLeakCheck.class, FaultMatrix.class})
class ExchangeFaultsTest {
  private static final Map<InputMode, String> QUERIES = new EnumMap<>(InputMode.class);

  static {
    // A CTE used twice whose top-k is worth computing once: a shared stage read FORWARD twice.
    QUERIES.put(
        InputMode.FORWARD,
        "WITH s AS (SELECT id, quantity FROM orders ORDER BY id LIMIT 30000)"
            + " SELECT id FROM s WHERE quantity > 10 UNION ALL SELECT id FROM s WHERE quantity <= 10");
    QUERIES.put(
        InputMode.SHUFFLE, "SELECT id % 20000 AS k, count(*) AS n FROM orders GROUP BY id % 20000");
    // LEFT: an inner join of two small sides would build the (replicable) orders scan instead
    QUERIES.put(
        InputMode.BROADCAST,
        "SELECT o.id, s.m FROM orders o LEFT JOIN (SELECT status, min(id) AS m FROM orders"
            + " GROUP BY status) s ON o.status = s.status");
    QUERIES.put(InputMode.MERGE, "SELECT id, amount FROM orders ORDER BY amount DESC, id");
    QUERIES.put(InputMode.RESCALE, "SELECT id, amount FROM orders LIMIT 60000");
  }

  @TempDir static Path dir;
  @TempDir static Path tmp;
  private static volatile Fault current;
  private static QuiverSession session;
  private static final Map<InputMode, List<List<Object>>> EXPECTED = new EnumMap<>(InputMode.class);

  @BeforeAll
  static void start() throws Exception {
    Path orders = dir.resolve("orders");
    try (BufferAllocator allocator = Allocators.newChild("write orders")) {
      OrdersFiles.writeParquet(orders, 4, 12_500, allocator);
    }
    session = FaultSessions.session(tmp, 0, () -> current);
    session.registerTable("orders", orders.toString());
    for (var query : QUERIES.entrySet()) {
      EXPECTED.put(query.getKey(), canonical(query.getKey(), session.sql(query.getValue()).rows()));
    }
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @AfterEach
  void nothingLeftBehind() {
    current = null;
    assertThat(spillFiles(tmp)).isEmpty();
  }

  static List<Arguments> cases() {
    List<Arguments> cases = new java.util.ArrayList<>();
    for (InputMode mode : QUERIES.keySet()) {
      for (Where where : Where.values()) {
        cases.add(Arguments.of(mode, where));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aTaskFailingOnceGivesTheExactAnswer(InputMode mode, Where where) {
    Stage stage = reader(mode);
    FaultMatrix.fault("task throws once (restarts left)", mode + " reader, " + where);
    current = new Fault(stage.id(), 0, where, Kind.FAIL_ONCE);
    List<List<Object>> rows = canonical(mode, session.sql(QUERIES.get(mode)).rows());
    assertThat(rows).isEqualTo(EXPECTED.get(mode));
    FaultMatrix.answer(rows.size() + " rows");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aTaskFailingInEveryAttemptNamesItsStageAndTask(InputMode mode, Where where) {
    Stage stage = reader(mode);
    FaultMatrix.fault(
        "task throws in every attempt (restarts exhausted)", mode + " reader, " + where);
    current = new Fault(stage.id(), 0, where, Kind.FAIL_ALWAYS);
    String message =
        oneClearError(
            () -> session.sql(QUERIES.get(mode)).rows(),
            "[" + ErrorCode.TASK_FAILED + "]",
            FaultOperator.MESSAGE + " at " + where,
            "(stage " + stage.id() + ", task 0 of " + stage.tasks() + ")");
    FaultMatrix.error(message);
  }

  /** Once the fault's task has reached it, the query is cancelled; the next one runs. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void cancellingWhileATaskIsAtItsFault(InputMode mode) throws Exception {
    Stage stage = reader(mode);
    FaultMatrix.fault(
        "cancel while a task is stopped at its fault", mode + " reader, SECOND_BATCH");
    Fault fault = new Fault(stage.id(), 0, Where.SECOND_BATCH, Kind.BLOCK);
    current = fault;
    SqlResult result = session.sql(QUERIES.get(mode));
    FaultSessions.cancelWhenReached(session, result, fault);
    current = null;
    assertThat(canonical(mode, session.sql(QUERIES.get(mode)).rows()))
        .isEqualTo(EXPECTED.get(mode));
    FaultMatrix.canceled("CANCELED; memory and spill files released; the next query answers");
  }

  static List<InputMode> modes() {
    return List.copyOf(QUERIES.keySet());
  }

  /** The stage that reads an input of {@code mode} in the query of that mode. */
  private static Stage reader(InputMode mode) {
    return session.stageGraph(QUERIES.get(mode)).stages().stream()
        .filter(s -> s.inputs().stream().map(StageInput::mode).anyMatch(mode::equals))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no stage reads " + mode));
  }

  private static List<List<Object>> canonical(InputMode mode, List<List<Object>> rows) {
    return mode == InputMode.MERGE ? rows : sorted(rows);
  }
}
