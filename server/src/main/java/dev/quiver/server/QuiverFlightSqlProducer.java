package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.quiver.flink.session.PlannedQuery;
import dev.quiver.flink.session.QuiverSession;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCatalogs;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTableTypes;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flight SQL over one {@link QuiverSession}: statements and prepared statements (without
 * parameters) as queries, the catalog's metadata, SQL info, and cancellation. Everything else is
 * {@link NoOpFlightSqlProducer}'s UNIMPLEMENTED (updates, ingestion, transactions, Substrait, keys,
 * type info).
 *
 * <pre>
 *   GetFlightInfo(statement) ─► plan (errors here: bad SQL, unknown table) ─► Query + ticket
 *   DoGet(ticket)            ─► admission (limit, queue) ─► Flink job ─► batches to the client
 *   CancelFlightInfo(info)   ─► the ticket's Query cancelled: its job cancelled, or never started
 * </pre>
 *
 * <p>A statement is planned once, when its FlightInfo is asked for, so the client gets the schema
 * before any row and the query never runs twice; each ticket runs its query once. A prepared
 * statement keeps its plan and gives a fresh ticket each time it is executed.
 */
final class QuiverFlightSqlProducer extends NoOpFlightSqlProducer {
  private static final Logger LOG = LoggerFactory.getLogger(QuiverFlightSqlProducer.class);
  private static final byte[] NO_PARAMETERS = CatalogMetadata.serialize(new Schema(List.of()));

  private final QuiverSession session;
  private final BufferAllocator allocator;
  private final Admission admission;
  private final ExecutorService streams;
  private final Queries queries = new Queries();
  private final Map<ByteString, PlannedQuery> prepared = new ConcurrentHashMap<>();
  private final SqlInfoBuilder sqlInfo = ServerSqlInfo.builder();

  QuiverFlightSqlProducer(
      QuiverSession session,
      BufferAllocator allocator,
      Admission admission,
      ExecutorService streams) {
    this.session = requireNonNull(session, "session is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.admission = requireNonNull(admission, "admission is null");
    this.streams = requireNonNull(streams, "streams is null");
  }

  /** The queries whose tickets are being read: waiting to run, or running. */
  int activeQueries() {
    return queries.active();
  }

  /** The queries that have ended cancelled (by a client, a disconnect, the server's stop). */
  long cancelledQueries() {
    return queries.cancelled();
  }

  /** Cancels every query, waiting or running (the server stops). */
  void cancelAll(String why) {
    queries.cancelAll(why);
  }

  /** Nothing to release: the server closes what it gave this producer. */
  @Override
  public void close() {}

  // --- statements ---------------------------------------------------------------------------

  @Override
  public FlightInfo getFlightInfoStatement(
      CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return flightInfo(plan(command.getQuery()), descriptor);
  }

  @Override
  public SchemaResult getSchemaStatement(
      CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return new SchemaResult(plan(command.getQuery()).schema());
  }

  @Override
  public void getStreamStatement(
      TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
    String id = ticket.getStatementHandle().toStringUtf8();
    Query query =
        queries
            .get(id)
            .orElseThrow(
                () ->
                    CallStatus.NOT_FOUND
                        .withDescription(
                            "no statement with this ticket: it ran already, was cancelled, or"
                                + " was not read within "
                                + Queries.UNREAD_TICKET_LIFETIME.toMinutes()
                                + " minutes")
                        .toRuntimeException());
    if (!query.claim()) {
      throw CallStatus.INVALID_ARGUMENT
          .withDescription("this ticket is being read already: execute the statement again")
          .toRuntimeException();
    }
    ResultStreamer streamer =
        new ResultStreamer(session, allocator, admission, queries, query, listener);
    try {
      streams.execute(streamer);
    } catch (RejectedExecutionException e) {
      query.ended();
      queries.remove(query);
      throw CallStatus.UNAVAILABLE.withDescription("the server is stopping").toRuntimeException();
    }
  }

  // --- prepared statements (no parameters) ---------------------------------------------------

  @Override
  public void createPreparedStatement(
      ActionCreatePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    try {
      PlannedQuery planned = plan(request.getQuery());
      ByteString handle = ByteString.copyFrom(UUID.randomUUID().toString(), StandardCharsets.UTF_8);
      prepared.put(handle, planned);
      ActionCreatePreparedStatementResult result =
          ActionCreatePreparedStatementResult.newBuilder()
              .setPreparedStatementHandle(handle)
              .setDatasetSchema(ByteString.copyFrom(CatalogMetadata.serialize(planned.schema())))
              .setParameterSchema(ByteString.copyFrom(NO_PARAMETERS))
              .build();
      listener.onNext(new Result(Any.pack(result).toByteArray()));
      listener.onCompleted();
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.of(e));
    }
  }

  @Override
  public void closePreparedStatement(
      ActionClosePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    prepared.remove(request.getPreparedStatementHandle());
    listener.onCompleted();
  }

  @Override
  public FlightInfo getFlightInfoPreparedStatement(
      CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return flightInfo(preparedQuery(command), descriptor);
  }

  @Override
  public SchemaResult getSchemaPreparedStatement(
      CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return new SchemaResult(preparedQuery(command).schema());
  }

  private PlannedQuery preparedQuery(CommandPreparedStatementQuery command) {
    PlannedQuery planned = prepared.get(command.getPreparedStatementHandle());
    if (planned == null) {
      throw CallStatus.NOT_FOUND
          .withDescription("no prepared statement with this handle (closed?)")
          .toRuntimeException();
    }
    return planned;
  }

  // --- cancellation ------------------------------------------------------------------------

  @Override
  public void cancelFlightInfo(
      CancelFlightInfoRequest request, CallContext context, StreamListener<CancelStatus> listener) {
    CancelStatus status = CancelStatus.NOT_CANCELLABLE;
    for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
      String id = ticketId(endpoint.getTicket());
      if (id != null
          && queries.get(id).map(q -> q.cancel("the client cancelled it")).orElse(false)) {
        status = CancelStatus.CANCELLED;
      }
    }
    listener.onNext(status);
    listener.onCompleted();
  }

  /** The query id in a ticket this server gave, or null for any other ticket. */
  private static String ticketId(Ticket ticket) {
    try {
      Any any = Any.parseFrom(ticket.getBytes());
      return any.is(TicketStatementQuery.class)
          ? any.unpack(TicketStatementQuery.class).getStatementHandle().toStringUtf8()
          : null;
    } catch (InvalidProtocolBufferException e) {
      return null;
    }
  }

  // --- metadata ----------------------------------------------------------------------------

  @Override
  public FlightInfo getFlightInfoSqlInfo(
      CommandGetSqlInfo request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_SQL_INFO_SCHEMA);
  }

  @Override
  public void getStreamSqlInfo(
      CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
    sqlInfo.send(command.getInfoList(), listener);
  }

  @Override
  public FlightInfo getFlightInfoCatalogs(
      CommandGetCatalogs request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_CATALOGS_SCHEMA);
  }

  @Override
  public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
    send(listener, CatalogMetadata::catalogs);
  }

  @Override
  public FlightInfo getFlightInfoSchemas(
      CommandGetDbSchemas request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_SCHEMAS_SCHEMA);
  }

  @Override
  public void getStreamSchemas(
      CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
    send(
        listener,
        a ->
            CatalogMetadata.schemas(
                a,
                command.hasCatalog() ? command.getCatalog() : null,
                command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null));
  }

  @Override
  public FlightInfo getFlightInfoTables(
      CommandGetTables request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(
        request,
        descriptor,
        request.getIncludeSchema()
            ? Schemas.GET_TABLES_SCHEMA
            : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA);
  }

  @Override
  public void getStreamTables(
      CommandGetTables command, CallContext context, ServerStreamListener listener) {
    send(
        listener,
        a ->
            CatalogMetadata.tables(
                a,
                session.catalog().tables(),
                command.hasCatalog() ? command.getCatalog() : null,
                command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null,
                command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : null,
                command.getTableTypesList(),
                command.getIncludeSchema()));
  }

  @Override
  public FlightInfo getFlightInfoTableTypes(
      CommandGetTableTypes request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_TABLE_TYPES_SCHEMA);
  }

  @Override
  public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
    send(listener, CatalogMetadata::tableTypes);
  }

  // --- helpers -----------------------------------------------------------------------------

  private PlannedQuery plan(String sql) {
    try {
      return session.prepare(sql);
    } catch (RuntimeException e) {
      throw FlightErrors.of(e);
    }
  }

  private FlightInfo flightInfo(PlannedQuery planned, FlightDescriptor descriptor) {
    Query query = queries.add(planned);
    TicketStatementQuery ticket =
        TicketStatementQuery.newBuilder()
            .setStatementHandle(ByteString.copyFromUtf8(query.id()))
            .build();
    LOG.debug("Query {} planned: {}", query.id(), planned.sql());
    // No location: the client reads the ticket from this server, on the connection it has.
    FlightEndpoint endpoint = new FlightEndpoint(new Ticket(Any.pack(ticket).toByteArray()));
    return new FlightInfo(planned.schema(), descriptor, List.of(endpoint), -1, -1);
  }

  /** A metadata command's FlightInfo: the command itself is its ticket. */
  private static FlightInfo metadataInfo(
      com.google.protobuf.Message request, FlightDescriptor descriptor, Schema schema) {
    FlightEndpoint endpoint = new FlightEndpoint(new Ticket(Any.pack(request).toByteArray()));
    return new FlightInfo(schema, descriptor, List.of(endpoint), -1, -1);
  }

  /** Sends one small metadata batch and ends the stream. */
  private void send(
      ServerStreamListener listener, Function<BufferAllocator, VectorSchemaRoot> make) {
    try (VectorSchemaRoot root = make.apply(allocator)) {
      listener.start(root);
      listener.putNext();
      listener.completed();
    } catch (RuntimeException e) {
      listener.error(FlightErrors.of(e));
    }
  }
}
