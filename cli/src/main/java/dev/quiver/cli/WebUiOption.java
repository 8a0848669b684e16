package dev.quiver.cli;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionBuilder;
import java.net.URI;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.WebOptions;
import picocli.CommandLine.Option;

/**
 * {@code --web-ui[=PORT]} of {@code serve} and {@code shell}: the local MiniCluster's REST
 * endpoint, which serves Flink's web UI ({@code flink-runtime-web} is on the class path), on PORT
 * (without it, a free one), started before the first query so that its URL can be printed. With
 * {@code --cluster} it is the remote cluster's own web UI.
 */
final class WebUiOption {
  @Option(
      names = "--web-ui",
      paramLabel = "PORT",
      arity = "0..1",
      fallbackValue = "0",
      description =
          "Print the URL of Flink's web UI, where the stages of each query can be watched: the"
              + " local cluster's, on PORT (default: a free port), or --cluster's own.")
  Integer port;

  /** The local cluster's REST endpoint: on 127.0.0.1 only, with no jar submission. */
  static Configuration localRest() {
    Configuration rest = new Configuration();
    rest.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    rest.set(WebOptions.SUBMIT_ENABLE, false);
    return rest;
  }

  /** Whether the web UI was asked for. */
  boolean enabled() {
    return port != null;
  }

  /** Binds a local cluster's REST endpoint to the chosen port. */
  void configure(SessionBuilder builder) {
    if (port != null && port != 0) {
      if (port < 0 || port > 65535) {
        throw new CliException("--web-ui: " + port + " is not a port");
      }
      Configuration rest = new Configuration();
      rest.set(RestOptions.BIND_PORT, Integer.toString(port));
      builder.configuration(rest);
    }
  }

  /** The web UI's URL (starting a local cluster now), e.g. {@code http://localhost:8081/}. */
  static URI url(QuiverSession session) {
    return session.restAddress().resolve("/");
  }
}
