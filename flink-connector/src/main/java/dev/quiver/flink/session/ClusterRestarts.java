package dev.quiver.flink.session;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalInt;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The restart strategy a remote cluster gives jobs that do not set one ({@code restart-strategy.*}
 * of its JobManager's configuration, from its REST endpoint {@code /jobmanager/config}).
 *
 * <p>Why the session asks: with restarts, a query's result tasks may send their output twice, and
 * the reader must know it to hand out every row once (see {@code ResultCommits}). A job that sets
 * the cluster's strategy itself behaves as the cluster would, and the reader knows.
 */
final class ClusterRestarts {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterRestarts.class);
  private static final String PREFIX = "restart-strategy.";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private ClusterRestarts() {}

  /**
   * The {@code restart-strategy.*} settings of the cluster at {@code host:port}; empty when it sets
   * none, or when it cannot be asked (then the job's submission reports the problem).
   */
  static Configuration of(String host, int port) {
    Configuration restarts = new Configuration();
    URI uri = URI.create("http://" + host + ":" + port + "/jobmanager/config");
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
      HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      // 503 while a cluster that has just started elects its leader: ask again.
      while (response.statusCode() == 503 && System.nanoTime() < deadline) {
        Thread.sleep(100);
        response = http.send(request, HttpResponse.BodyHandlers.ofString());
      }
      if (response.statusCode() != 200) {
        throw new IOException("HTTP " + response.statusCode() + ": " + response.body());
      }
      for (JsonNode entry : new ObjectMapper().readTree(response.body())) {
        String key = entry.path("key").asText();
        if (key.startsWith(PREFIX)) {
          restarts.setString(key, entry.path("value").asText());
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot read the restart strategy of the cluster at {}: {}", uri, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return restarts;
  }

  /**
   * The total task slots of the cluster at {@code host:port} ({@code slots-total} of its REST
   * endpoint {@code /overview}), or empty when it cannot be asked.
   */
  static OptionalInt slots(String host, int port) {
    URI uri = URI.create("http://" + host + ":" + port + "/overview");
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
      HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 200) {
        JsonNode slots = new ObjectMapper().readTree(response.body()).path("slots-total");
        if (slots.isInt()) {
          return OptionalInt.of(slots.asInt());
        }
      }
      LOG.warn("cannot read the slots of the cluster at {}: HTTP {}", uri, response.statusCode());
    } catch (IOException e) {
      LOG.warn("cannot read the slots of the cluster at {}: {}", uri, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return OptionalInt.empty();
  }

  /** Whether {@code configuration} chooses a restart strategy. */
  static boolean chosen(Configuration configuration) {
    return configuration.contains(RestartStrategyOptions.RESTART_STRATEGY);
  }
}
