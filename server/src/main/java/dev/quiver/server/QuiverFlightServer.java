package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.operators.memory.Allocators;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Arrow Flight SQL server in front of one {@link QuiverSession}: JDBC (the Arrow Flight SQL JDBC
 * driver), ADBC and Flight SQL clients run SQL on the session's tables and read the results as
 * Arrow batches while the Flink jobs run.
 *
 * <pre>{@code
 * try (QuiverSession session = QuiverSession.builder().build();
 *     QuiverFlightServer server =
 *         QuiverFlightServer.builder(session)
 *             .port(31337)
 *             .authentication(Authentication.password("alice", "secret"))
 *             .start()) {
 *   server.awaitTermination();
 * }
 * }</pre>
 *
 * <p>Each statement is its own Flink job on the session's cluster; at most {@link
 * #maxConcurrentQueries()} run at once (by default as many as the cluster's slots hold at the
 * session's parallelism, {@code slots / parallelism}, at least one), the next ones wait in a
 * bounded queue, and beyond it a query fails with RESOURCE_EXHAUSTED. The server does not own the
 * session: {@link #close()} cancels the queries that run or wait, waits until their jobs have ended
 * (their memory released, their spill files deleted) and stops listening; the caller closes the
 * session.
 */
public final class QuiverFlightServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QuiverFlightServer.class);

  /** How long {@link #close()} waits for cancelled queries to end. */
  static final Duration STOP_WAIT = Duration.ofSeconds(15);

  private static final AtomicInteger SERVERS = new AtomicInteger();

  private final FlightServer server;
  private final QuiverFlightSqlProducer producer;
  private final BufferAllocator allocator;
  private final ExecutorService streams;
  private final Admission admission;
  private final Location location;
  private boolean closed;

  private QuiverFlightServer(
      FlightServer server,
      QuiverFlightSqlProducer producer,
      BufferAllocator allocator,
      ExecutorService streams,
      Admission admission,
      Location location) {
    this.server = server;
    this.producer = producer;
    this.allocator = allocator;
    this.streams = streams;
    this.admission = admission;
    this.location = location;
  }

  /** A builder of a server over {@code session}. */
  public static Builder builder(QuiverSession session) {
    return new Builder(session);
  }

  /** The port the server listens on (the one chosen when asked for port 0). */
  public int port() {
    return server.getPort();
  }

  /** Where clients connect, e.g. {@code grpc+tcp://127.0.0.1:31337} or {@code grpc+tls://...}. */
  public Location location() {
    return location;
  }

  /** The most queries that run at once; the others wait. */
  public int maxConcurrentQueries() {
    return admission.maxRunning();
  }

  /** The most queries that wait to run; beyond them a query fails with RESOURCE_EXHAUSTED. */
  public int maxQueuedQueries() {
    return admission.maxQueued();
  }

  /** The queries being read now: waiting to run or running. */
  public int activeQueries() {
    return producer.activeQueries();
  }

  /**
   * The queries that have ended cancelled since the server started: by their client, by a client
   * that went away, or by the server's stop.
   */
  public long cancelledQueries() {
    return producer.cancelledQueries();
  }

  /** The queries waiting to run now. */
  public int queuedQueries() {
    return admission.queued();
  }

  /** Blocks until the server has stopped. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Cancels every query (running ones have their Flink jobs cancelled), waits at most 15 s until
   * they have ended, stops the server (at most 3 s more for clients to hear of it, then their
   * connections are closed) and releases its memory. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LOG.info("Flight SQL server at {} stopping", location.getUri());
    producer.cancelAll("the server is stopping");
    streams.shutdown();
    try {
      if (!streams.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("queries did not end within {} s of their cancellation", STOP_WAIT.toSeconds());
      }
      // Every query has ended. Flight's close waits 3 s for calls to finish, then closes the
      // connections: a client that stopped reading would otherwise hold its call (the CANCELLED
      // status queues behind the data its flow-control window has no room for) for ever.
      server.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping the Flight SQL server", e);
    }
    allocator.close();
    LOG.info("Flight SQL server at {} stopped", location.getUri());
  }

  /** Where, who may connect, TLS, and how many queries at once. */
  public static final class Builder {
    private final QuiverSession session;
    private String host = "127.0.0.1";
    private int port = 31337;
    private Authentication authentication;
    private Path tlsCertificate;
    private Path tlsKey;
    private int maxConcurrentQueries; // 0: from the session's cluster
    private int maxQueuedQueries = -1; // -1: the default

    private Builder(QuiverSession session) {
      this.session = requireNonNull(session, "session is null");
    }

    /** The address to listen on (default 127.0.0.1: this machine only). */
    public Builder host(String value) {
      this.host = requireNonNull(value, "value is null");
      return this;
    }

    /** The port (default 31337; 0 picks a free one, see {@link #port()}). */
    public Builder port(int value) {
      if (value < 0 || value > 65535) {
        throw new IllegalArgumentException("port must be in 0..65535: " + value);
      }
      this.port = value;
      return this;
    }

    /** Who may connect; required ({@link Authentication#none()} must be chosen explicitly). */
    public Builder authentication(Authentication value) {
      this.authentication = requireNonNull(value, "value is null");
      return this;
    }

    /** TLS with this PEM certificate chain and PEM (PKCS#8) private key. */
    public Builder tls(Path certificateChain, Path privateKey) {
      this.tlsCertificate = requireNonNull(certificateChain, "certificateChain is null");
      this.tlsKey = requireNonNull(privateKey, "privateKey is null");
      return this;
    }

    /** The most queries that run at once (default: the cluster's slots / parallelism). */
    public Builder maxConcurrentQueries(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("max concurrent queries must be at least 1: " + value);
      }
      this.maxConcurrentQueries = value;
      return this;
    }

    /** The most queries that wait to run (default: 4 per query that may run, at least 16). */
    public Builder maxQueuedQueries(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("max queued queries must not be negative: " + value);
      }
      this.maxQueuedQueries = value;
      return this;
    }

    /**
     * Starts the server.
     *
     * @throws IllegalStateException without an {@link #authentication} choice
     * @throws IOException if the port cannot be bound or the TLS files cannot be read
     */
    public QuiverFlightServer start() throws IOException {
      if (authentication == null) {
        throw new IllegalStateException(
            "choose an authentication: a user and password, or none explicitly");
      }
      int running =
          maxConcurrentQueries > 0 ? maxConcurrentQueries : defaultMaxConcurrentQueries(session);
      int queued = maxQueuedQueries >= 0 ? maxQueuedQueries : Math.max(16, 4 * running);
      Admission admission = new Admission(running, queued);
      Location location =
          tlsCertificate == null
              ? Location.forGrpcInsecure(host, port)
              : Location.forGrpcTls(host, port);
      BufferAllocator allocator =
          Allocators.newChild("quiver-flight-server-" + SERVERS.incrementAndGet());
      ExecutorService streams = Executors.newCachedThreadPool(threads("quiver-flight-query-"));
      QuiverFlightSqlProducer producer =
          new QuiverFlightSqlProducer(session, allocator, admission, streams);
      FlightServer server = null;
      try {
        FlightServer.Builder builder =
            FlightServer.builder(allocator, location, producer)
                .headerAuthenticator(authentication.authenticator());
        if (tlsCertificate != null) {
          builder.useTls(Files.newInputStream(tlsCertificate), Files.newInputStream(tlsKey));
        }
        server = builder.build().start();
      } catch (IOException | RuntimeException e) {
        streams.shutdownNow();
        if (server != null) {
          server.shutdown();
        }
        allocator.close();
        throw e;
      }
      Location bound =
          tlsCertificate == null
              ? Location.forGrpcInsecure(host, server.getPort())
              : Location.forGrpcTls(host, server.getPort());
      LOG.info(
          "Flight SQL server at {} ({}, at most {} queries at once, {} waiting)",
          bound.getUri(),
          authentication instanceof Authentication.None ? "no authentication" : "password",
          running,
          queued);
      return new QuiverFlightServer(server, producer, allocator, streams, admission, bound);
    }

    private static ThreadFactory threads(String prefix) {
      AtomicInteger count = new AtomicInteger();
      return runnable -> {
        Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
      };
    }
  }

  /**
   * As many queries as the cluster's slots hold at the session's parallelism (a query's stages
   * share slots, so a query needs as many as its widest stage, the parallelism), at least one; one
   * when the cluster cannot say.
   */
  static int defaultMaxConcurrentQueries(QuiverSession session) {
    Optional<Integer> slots =
        session.slots().isPresent() ? Optional.of(session.slots().getAsInt()) : Optional.empty();
    return Math.max(1, slots.orElse(1) / session.parallelism());
  }
}
