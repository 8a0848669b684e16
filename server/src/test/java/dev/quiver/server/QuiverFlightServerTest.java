package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.FaultMatrix;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server with Arrow's Flight SQL Java client, on loopback: statements and prepared statements
 * streaming batch by batch, the schema before any job, metadata, errors as one-line Flight errors,
 * cancellation and a client that goes away mid-stream (its job cancelled), the queue limit, a
 * failing query beside a good one. Every test ends with no query running, no Flink job left and no
 * Arrow memory held.
 */
@ExtendWith({ArrowLeakCheck.class, FaultMatrix.class})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QuiverFlightServerTest {
  static final long ROWS = 1_000_000;

  /**
   * 10^7 rows (each row of numbers meets 10 of small, broadcast): a result far larger than what
   * Flink and gRPC buffer, so its job runs until a client has read it all, or until it is
   * cancelled. Nothing spills: the build side is small's 100 rows.
   */
  static final String ENDLESS =
      "select a.id, b.id as other from numbers a join small b on a.grp = b.grp";

  @TempDir static Path dir;
  static QuiverSession session;
  static QuiverFlightServer server;

  @BeforeAll
  static void start() throws Exception {
    NumbersTable.write(dir, "numbers", ROWS);
    NumbersTable.write(dir, "small", 100);
    session = QuiverSession.builder().parallelism(2).build();
    session.registerDirectory(dir);
    server =
        QuiverFlightServer.builder(session)
            .port(0)
            .authentication(Authentication.none())
            .maxConcurrentQueries(2)
            .start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (session != null) {
      session.close();
    }
  }

  @AfterEach
  void nothingLeftRunning() throws InterruptedException {
    awaitIdle(server);
  }

  /** Waits until no query is read, no result is open and no Flink job is left. */
  static void awaitIdle(QuiverFlightServer server) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      if (server.activeQueries() == 0
          && session.openQueries() == 0
          && session.unfinishedJobs().orElseThrow() == 0) {
        return;
      }
      Thread.sleep(20);
    }
    assertThat(server.activeQueries()).as("queries still read").isZero();
    assertThat(session.openQueries()).as("results still open").isZero();
    assertThat(session.unfinishedJobs().orElseThrow()).as("Flink jobs not ended").isZero();
  }

  static FlightSqlClient client(BufferAllocator allocator, QuiverFlightServer server) {
    return new FlightSqlClient(FlightClient.builder(allocator, server.location()).build());
  }

  @Test
  void aStatementStreamsItsResultBatchByBatch(BufferAllocator allocator) throws Exception {
    try (FlightSqlClient client = client(allocator, server)) {
      FlightInfo info = client.execute("select id, grp from numbers");
      assertThat(info.getSchemaOptional().orElseThrow().getFields())
          .extracting(f -> f.getName())
          .containsExactly("id", "grp");
      long rows = 0;
      long sum = 0;
      int batches = 0;
      try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
        while (stream.next()) {
          VectorSchemaRoot root = stream.getRoot();
          BigIntVector id = (BigIntVector) root.getVector("id");
          for (int i = 0; i < root.getRowCount(); i++) {
            sum += id.get(i);
          }
          rows += root.getRowCount();
          batches++;
        }
      }
      assertThat(rows).isEqualTo(ROWS);
      assertThat(sum).isEqualTo(ROWS * (ROWS - 1) / 2);
      assertThat(batches).as("batches streamed").isGreaterThan(10);
    }
  }

  @Test
  void theSchemaComesBeforeAnyJob(BufferAllocator allocator) throws Exception {
    try (FlightSqlClient client = client(allocator, server)) {
      Schema schema =
          client
              .getExecuteSchema("select grp, count(*) as n from numbers group by grp")
              .getSchema();
      FlightInfo info = client.execute("select grp, count(*) as n from numbers group by grp");
      assertThat(info.getSchemaOptional().orElseThrow()).isEqualTo(schema);
      assertThat(schema.getFields()).extracting(f -> f.getName()).containsExactly("grp", "n");
      assertThat(session.unfinishedJobs().orElseThrow())
          .as("jobs before the ticket is read")
          .isZero();
      assertThat(rows(client, info)).hasSize(10);
    }
  }

  @Test
  void aPreparedStatementRunsEachTimeItIsExecuted(BufferAllocator allocator) throws Exception {
    try (FlightSqlClient client = client(allocator, server);
        FlightSqlClient.PreparedStatement statement =
            client.prepare("select count(*) as n, sum(id) as s from small")) {
      assertThat(statement.getResultSetSchema().getFields())
          .extracting(f -> f.getName())
          .containsExactly("n", "s");
      for (int run = 0; run < 2; run++) {
        assertThat(rows(client, statement.execute())).containsExactly(List.of(100L, 4950L));
      }
    }
  }

  @Test
  void metadataListsTheCatalog(BufferAllocator allocator) throws Exception {
    try (FlightSqlClient client = client(allocator, server)) {
      assertThat(rows(client, client.getCatalogs())).isEmpty();
      assertThat(rows(client, client.getSchemas(null, null)))
          .containsExactly(java.util.Arrays.asList(null, "quiver"));
      assertThat(rows(client, client.getTableTypes())).containsExactly(List.of("TABLE"));
      FlightInfo tables = client.getTables(null, "quiver", "%", null, true);
      List<String> names = new ArrayList<>();
      try (FlightStream stream = client.getStream(tables.getEndpoints().get(0).getTicket())) {
        while (stream.next()) {
          VectorSchemaRoot root = stream.getRoot();
          for (int i = 0; i < root.getRowCount(); i++) {
            String name = ((VarCharVector) root.getVector("table_name")).getObject(i).toString();
            names.add(name);
            byte[] schema = ((VarBinaryVector) root.getVector("table_schema")).get(i);
            Schema decoded =
                MessageSerializer.deserializeSchema(
                    new ReadChannel(new ByteArrayReadableSeekableByteChannel(schema)));
            assertThat(decoded.getFields())
                .extracting(f -> f.getName())
                .containsExactly("id", "grp");
          }
        }
      }
      assertThat(names).containsExactly("numbers", "small");
      assertThat(rows(client, client.getTables(null, null, "sm%", null, false))).hasSize(1);
      assertThat(rows(client, client.getTables("elsewhere", null, null, null, false))).isEmpty();
      List<List<Object>> info = rows(client, client.getSqlInfo(SqlInfo.FLIGHT_SQL_SERVER_NAME));
      assertThat(info.get(0).get(1).toString()).contains("Quiver");
    }
  }

  @Test
  void badSqlIsAnInvalidArgumentWithQuiversOneLineMessage(BufferAllocator allocator)
      throws Exception {
    try (FlightSqlClient client = client(allocator, server)) {
      assertThatThrownBy(() -> client.execute("select id fro numbers"))
          .isInstanceOfSatisfying(
              FlightRuntimeException.class,
              e -> {
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage())
                    .contains("SYNTAX_ERROR")
                    .contains("line 1")
                    .doesNotContain("\n");
              });
      assertThatThrownBy(() -> client.execute("select * from numbrs"))
          .isInstanceOfSatisfying(
              FlightRuntimeException.class,
              e -> {
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage())
                    .contains("numbrs")
                    .contains("numbers")
                    .doesNotContain("\tat ");
              });
      assertThatThrownBy(() -> client.prepare("select id + 'a' from numbers"))
          .isInstanceOfSatisfying(
              FlightRuntimeException.class,
              e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT));
    }
  }

  @Test
  void aFailingQueryLeavesAnotherOneAlone(BufferAllocator allocator) throws Exception {
    try (FlightSqlClient client = client(allocator, server)) {
      FlightInfo failing = client.execute("select id / (grp - grp) from numbers");
      FlightInfo good = client.execute("select count(*) from numbers");
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        Future<List<List<Object>>> bad = pool.submit(() -> rows(client, failing));
        Future<List<List<Object>>> ok = pool.submit(() -> rows(client, good));
        assertThat(ok.get()).containsExactly(List.of(ROWS));
        assertThatThrownBy(bad::get)
            .cause()
            .isInstanceOfSatisfying(
                FlightRuntimeException.class,
                e -> {
                  assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                  assertThat(e.getMessage()).contains("DIVISION_BY_ZERO").doesNotContain("\n");
                });
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void cancelFlightInfoCancelsTheRunningJob(BufferAllocator allocator) throws Exception {
    try (FlightSqlClient client = client(allocator, server)) {
      long cancelled = server.cancelledQueries();
      FlightInfo info = client.execute(ENDLESS);
      try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
        assertThat(stream.next()).isTrue(); // running, held back by this client
        assertThat(session.unfinishedJobs().orElseThrow()).isEqualTo(1);
        assertThat(client.cancelFlightInfo(new CancelFlightInfoRequest(info)).getStatus())
            .isEqualTo(CancelStatus.CANCELLED);
        assertThatThrownBy(
                () -> {
                  while (stream.next()) {
                    // drain what was sent before the cancellation
                  }
                })
            .isInstanceOfSatisfying(
                FlightRuntimeException.class,
                e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.CANCELLED));
      }
      awaitIdle(server);
      assertThat(server.cancelledQueries()).isEqualTo(cancelled + 1);
      assertThat(client.cancelFlightInfo(new CancelFlightInfoRequest(info)).getStatus())
          .as("a query that has ended")
          .isEqualTo(CancelStatus.NOT_CANCELLABLE);
    }
  }

  @Test
  void aClientThatGoesAwayMidStreamHasItsJobCancelled(BufferAllocator allocator) throws Exception {
    long cancelled = server.cancelledQueries();
    FlightSqlClient client = client(allocator, server);
    FlightInfo info = client.execute(ENDLESS);
    FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket());
    assertThat(stream.next()).isTrue();
    assertThat(session.unfinishedJobs().orElseThrow()).isEqualTo(1);
    stream.cancel("the client goes away", null);
    try {
      stream.close();
    } catch (Exception expected) {
      // closing a cancelled stream reports its cancellation
    }
    client.close();
    awaitIdle(server); // the job was cancelled: nobody reads the result
    assertThat(server.cancelledQueries()).isEqualTo(cancelled + 1);
  }

  /**
   * The connection of a client that has read one batch drops (reset, as a network that loses the
   * client would; the client neither cancels nor closes): the server ends the query, the job is
   * cancelled, the session holds no result and no Arrow memory is left (checked after each test).
   */
  @Test
  void aClientWhoseConnectionDropsMidStreamHasItsQueryEnded(BufferAllocator allocator)
      throws Exception {
    FaultMatrix.fault(
        "client gone mid-result",
        "Flight SQL client's connection reset after one batch of a 10^7-row result (MiniCluster)");
    long cancelled = server.cancelledQueries();
    try (CuttableProxy proxy = new CuttableProxy(server.location().getUri().getPort())) {
      FlightSqlClient client =
          new FlightSqlClient(
              FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", proxy.port()))
                  .build());
      FlightInfo info = client.execute(ENDLESS);
      FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket());
      assertThat(stream.next()).isTrue();
      assertThat(session.unfinishedJobs().orElseThrow()).isEqualTo(1);
      proxy.cut();
      awaitIdle(server);
      assertThat(server.cancelledQueries()).isEqualTo(cancelled + 1);
      try {
        stream.close();
      } catch (Exception expected) {
        // the stream broke with its connection
      }
      client.close();
    }
    FaultMatrix.canceled("the server ended the query and its job was CANCELED; nothing leaked");
  }

  @Test
  void aFullQueueRefusesWithResourceExhausted(BufferAllocator allocator) throws Exception {
    try (QuiverFlightServer small =
            QuiverFlightServer.builder(session)
                .port(0)
                .authentication(Authentication.none())
                .maxConcurrentQueries(1)
                .maxQueuedQueries(0)
                .start();
        FlightSqlClient client = client(allocator, small)) {
      FlightInfo first = client.execute(ENDLESS);
      try (FlightStream held = client.getStream(first.getEndpoints().get(0).getTicket())) {
        assertThat(held.next()).isTrue();
        FlightInfo second = client.execute("select count(*) from small");
        assertThatThrownBy(() -> rows(client, second))
            .isInstanceOfSatisfying(
                FlightRuntimeException.class,
                e -> {
                  assertThat(e.status().code()).isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
                  assertThat(e.getMessage()).contains("--max-concurrent-queries");
                });
        held.cancel("done", null);
      } catch (FlightRuntimeException e) {
        assertThat(e.status().code()).isEqualTo(FlightStatusCode.CANCELLED);
      }
      awaitIdle(small);
    }
  }

  @Test
  void aServerNeedsAnAuthenticationChoice() {
    assertThatThrownBy(() -> QuiverFlightServer.builder(session).port(0).start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("authentication");
  }

  @Test
  void theDefaultLimitIsTheSlotsAQueryLeaves() {
    assertThat(QuiverFlightServer.defaultMaxConcurrentQueries(session)).isEqualTo(1);
  }

  /** Every row of the stream {@code info} names, as Java values. */
  static List<List<Object>> rows(FlightSqlClient client, FlightInfo info) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
      while (stream.next()) {
        VectorSchemaRoot root = stream.getRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          List<Object> row = new ArrayList<>();
          for (var vector : root.getFieldVectors()) {
            Object value = vector.getObject(i);
            row.add(value instanceof org.apache.arrow.vector.util.Text t ? t.toString() : value);
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }
}
