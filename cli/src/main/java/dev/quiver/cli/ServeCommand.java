package dev.quiver.cli;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionBuilder;
import dev.quiver.server.Authentication;
import dev.quiver.server.QuiverFlightServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver serve}: an Arrow Flight SQL server ({@link QuiverFlightServer}) in front of one
 * session, whose cluster it starts before it listens (with a first query, {@code select 1}), until
 * Ctrl-C or SIGTERM, which cancel the running queries, wait until their jobs have ended (memory
 * released, spill files deleted) and stop the session.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Serve SQL over Arrow Flight SQL to JDBC, ADBC and BI tools, on one warm session, until"
            + " Ctrl-C.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  quiver serve --catalog ~/.cache/quiver/tpch-sf0.1 --user alice --password-file pw.txt",
      "  then JDBC: jdbc:arrow-flight-sql://127.0.0.1:31337/?useEncryption=false&user=alice"
          + "&password=...",
      "  quiver serve --catalog DIR --no-auth --host 0.0.0.0 --tls-cert cert.pem --tls-key key.pem"
    })
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TableOptions tables;

  @Mixin SessionOptions session;

  @Mixin WebUiOption webUi;

  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "The address to listen on (default: 127.0.0.1, this machine only).")
  String host = "127.0.0.1";

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "The port to listen on (default: 31337; 0 picks a free one).")
  int port = 31337;

  @Option(names = "--user", paramLabel = "NAME", description = "The user name clients send.")
  String user;

  @Option(
      names = "--password",
      paramLabel = "PASSWORD",
      description = "The password clients send (visible to other users in ps: prefer a file).")
  String password;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "Read the password from the first line of FILE.")
  Path passwordFile;

  @Option(
      names = "--no-auth",
      description = "Accept every client without a password (only where the network is trusted).")
  boolean noAuth;

  @Option(
      names = "--tls-cert",
      paramLabel = "FILE",
      description = "Serve TLS with this PEM certificate chain (with --tls-key).")
  Path tlsCert;

  @Option(
      names = "--tls-key",
      paramLabel = "FILE",
      description = "The PEM (PKCS#8) private key of --tls-cert.")
  Path tlsKey;

  @Option(
      names = "--max-concurrent-queries",
      paramLabel = "N",
      description =
          "Queries that run at once; the next ones wait (default: the cluster's slots / the"
              + " parallelism). On the local cluster, N x parallelism slots are started, which"
              + " share its managed memory.")
  Integer maxConcurrentQueries;

  @Option(
      names = "--max-queued-queries",
      paramLabel = "N",
      description =
          "Queries that wait to run; beyond them a query fails at once with RESOURCE_EXHAUSTED"
              + " (default: 4 per running query, at least 16).")
  Integer maxQueuedQueries;

  @Override
  public Integer call() throws Exception {
    Authentication authentication = authentication();
    if ((tlsCert == null) != (tlsKey == null)) {
      throw usage("--tls-cert and --tls-key go together");
    }
    if (maxConcurrentQueries != null && maxConcurrentQueries < 1) {
      throw usage("--max-concurrent-queries must be at least 1, not " + maxConcurrentQueries);
    }
    if (maxQueuedQueries != null && maxQueuedQueries < 0) {
      throw usage("--max-queued-queries must not be negative, not " + maxQueuedQueries);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    SessionBuilder builder = session.builder();
    webUi.configure(builder);
    if (maxConcurrentQueries != null && !session.remote()) {
      Configuration slots = new Configuration();
      slots.set(TaskManagerOptions.NUM_TASK_SLOTS, maxConcurrentQueries * session.parallelism());
      builder.configuration(slots);
    }
    QuiverSession quiver = builder.build();
    QuiverFlightServer server;
    try {
      tables.register(quiver);
      // A first job starts a local cluster (seconds) now rather than in the first client's query.
      quiver.sql("select 1").rows();
      QuiverFlightServer.Builder serverBuilder =
          QuiverFlightServer.builder(quiver).host(host).port(port).authentication(authentication);
      if (tlsCert != null) {
        serverBuilder.tls(tlsCert, tlsKey);
      }
      if (maxConcurrentQueries != null) {
        serverBuilder.maxConcurrentQueries(maxConcurrentQueries);
      }
      if (maxQueuedQueries != null) {
        serverBuilder.maxQueuedQueries(maxQueuedQueries);
      }
      server = serverBuilder.start();
    } catch (IOException | RuntimeException e) {
      quiver.close();
      throw e;
    }
    Runtime.getRuntime().addShutdownHook(stopOnExit(server, quiver, err));
    if (webUi.enabled()) {
      out.println("Flink web UI: " + WebUiOption.url(quiver));
    }
    out.println(
        "Quiver Flight SQL server listening on "
            + server.location().getUri()
            + " (JDBC: jdbc:arrow-flight-sql://"
            + host
            + ":"
            + server.port()
            + "/?useEncryption="
            + (tlsCert != null)
            + "), "
            + quiver.catalog().tables().size()
            + " tables, at most "
            + server.maxConcurrentQueries()
            + " queries at once");
    out.flush();
    new CountDownLatch(1).await(); // until the JVM exits: Ctrl-C or SIGTERM
    return 0;
  }

  private Authentication authentication() throws IOException {
    boolean passwordGiven = password != null || passwordFile != null;
    if (noAuth) {
      if (user != null || passwordGiven) {
        throw usage("--no-auth goes with neither --user nor a password");
      }
      return Authentication.none();
    }
    if (user == null || !passwordGiven) {
      throw usage(
          "choose who may connect: --user NAME with --password or --password-file, or --no-auth");
    }
    if (password != null && passwordFile != null) {
      throw usage("--password and --password-file exclude each other");
    }
    String secret = password;
    if (passwordFile != null) {
      List<String> lines = Files.readAllLines(passwordFile, StandardCharsets.UTF_8);
      secret = lines.isEmpty() ? "" : lines.get(0).strip();
    }
    if (user.isEmpty() || secret.isEmpty()) {
      throw usage("the user name and the password must not be empty");
    }
    return Authentication.password(user, secret);
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * The shutdown hook: cancels the running queries and waits until their jobs have ended, stops the
   * server and the session; at most {@link CancelOnExit#WAIT} plus the server's own wait.
   */
  private static Thread stopOnExit(
      QuiverFlightServer server, QuiverSession quiver, PrintWriter err) {
    return new Thread(
        () -> {
          int active = server.activeQueries();
          err.println("quiver: stopping: cancelling " + active + " queries");
          err.flush();
          Thread closer =
              new Thread(
                  () -> {
                    try {
                      server.close();
                    } finally {
                      quiver.close();
                    }
                  },
                  "quiver: stop server");
          closer.setDaemon(true);
          closer.start();
          try {
            closer.join(CancelOnExit.WAIT.toMillis() * 2);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          err.println(closer.isAlive() ? "quiver: did not stop in time" : "quiver: stopped");
          err.flush();
        },
        "quiver: stop on exit");
  }
}
