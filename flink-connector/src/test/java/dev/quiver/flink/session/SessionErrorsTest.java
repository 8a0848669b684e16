package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.CatalogTable;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mistakes a user can make, each reported with its error code and a message that names the path,
 * table or column; the session stays usable after every one of them.
 */
@ExtendWith(ArrowLeakCheck.class)
class SessionErrorsTest {
  @TempDir static Path dir;
  private static QuiverSession session;
  private static Path orders;

  @BeforeAll
  static void start() throws Exception {
    orders = dir.resolve("orders");
    try (BufferAllocator allocator = Allocators.newChild("write orders")) {
      OrdersFiles.writeParquet(orders, 2, 100, allocator);
    }
    session = QuiverSession.builder().parallelism(2).build();
    session.registerTable("orders", orders.toString());
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  /** Every error leaves the session able to answer the next query. */
  @AfterEach
  void sessionStillWorks() {
    assertThat(session.sql("SELECT count(*) FROM orders").rows()).containsExactly(List.of(200L));
  }

  @Test
  void missingPath() {
    assertFails(
        () -> session.registerTable("lost", dir.resolve("no-such-dir").toString()),
        ErrorCode.FILE_NOT_FOUND,
        "no-such-dir",
        "does not exist");
    assertThat(session.catalog().table("lost")).isEmpty();
  }

  @Test
  void unknownTableOrColumn() {
    assertFails(() -> session.sql("SELECT * FROM lineitem"), ErrorCode.INVALID_QUERY, "'lineitem'");
    assertFails(
        () -> session.sql("SELECT l_quantity FROM orders"),
        ErrorCode.INVALID_QUERY,
        "'l_quantity'");
    assertFails(
        () -> session.explain("SELECT * FROM lineitem"), ErrorCode.INVALID_QUERY, "'lineitem'");
  }

  @Test
  void syntaxError() {
    assertFails(() -> session.sql("SELEC 1 FROM orders"), ErrorCode.SYNTAX_ERROR, "line 1");
  }

  @Test
  void failureWhileRunningSurfacesTheTaskErrorWithItsStageAndTask() {
    // One line that says what (the expression), where in the data (the row) and where in the
    // plan (the stage id EXPLAIN shows, and the task).
    assertFails(
        () -> session.sql("SELECT id / (quantity - quantity) FROM orders").rows(),
        ErrorCode.DIVISION_BY_ZERO,
        "(stage 0, task ");
  }

  @Test
  void filesDeletedSinceRegistrationNameTheTable() throws Exception {
    Path copy = Files.createDirectories(dir.resolve("copy"));
    Files.copy(orders.resolve("part-0.parquet"), copy.resolve("part-0.parquet"));
    Files.copy(orders.resolve("part-1.parquet"), copy.resolve("part-1.parquet"));
    session.registerTable("copy", copy.toString());
    Files.delete(copy.resolve("part-1.parquet"));

    assertFails(
        () -> session.sql("SELECT count(*) FROM copy"),
        ErrorCode.FILE_NOT_FOUND,
        "table 'copy'",
        "part-1.parquet",
        "register the table again");
  }

  @Test
  void tablesNotStoredInFilesCannotBeScanned() {
    session.register(
        new CatalogTable(
            "memory", RowSchema.of(Column.of("x", SqlType.BIGINT)), 1, List.of(), Map.of()));

    assertThatThrownBy(() -> session.sql("SELECT x FROM memory"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table 'memory' is not stored in files");
  }

  private static void assertFails(ThrowingCallable call, ErrorCode code, String... fragments) {
    assertThatThrownBy(call)
        .isInstanceOf(QuiverException.class)
        .satisfies(e -> assertThat(((QuiverException) e).code()).isEqualTo(code))
        .hasMessageContainingAll(fragments);
  }
}
