package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many stages of a running query have finished, as its cluster's REST endpoint says ({@code GET
 * /jobs/<id>}, the same call locally and with {@code --cluster}): for the progress line.
 *
 * <p>Every stage is one Flink operator named {@code stage N: ...}; Flink chains operators into job
 * vertices and names a vertex after its operators ({@code Source: scan ... -> stage 0: ... -> stage
 * 1: ...}), and reports each vertex's state. A stage is done when its vertex is FINISHED, and every
 * stage is once the job is. Reading it costs one local HTTP call, so {@link #done()} asks at most
 * every {@link #PERIOD}; an endpoint that does not answer leaves the count where it was (progress
 * is for people, never a reason to fail a query).
 */
final class JobStages {
  static final Duration PERIOD = Duration.ofMillis(500);
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final Pattern STAGE = Pattern.compile("(?:^|-> |: |\\[)stage (\\d+): ");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

  private final URI job;
  private final int total;
  private int done;
  private long askedNanos;
  private boolean asking;

  /**
   * @param rest the cluster's REST endpoint, e.g. {@code http://localhost:8081}
   * @param jobId the query's Flink job
   * @param total the query's stages
   */
  JobStages(URI rest, String jobId, int total) {
    requireNonNull(rest, "rest is null");
    this.job = rest.resolve("/jobs/" + requireNonNull(jobId, "jobId is null"));
    this.total = total;
  }

  int total() {
    return total;
  }

  /**
   * The stages done as last heard, without waiting: asks again in the background (at most one call
   * at a time, at most every {@link #PERIOD}), so that the progress line, which holds its lock
   * while it draws, never waits for a slow cluster.
   */
  synchronized int done() {
    long now = System.nanoTime();
    if (asking || (askedNanos != 0 && now - askedNanos < PERIOD.toNanos())) {
      return done;
    }
    askedNanos = now;
    asking = true;
    HTTP.sendAsync(
            HttpRequest.newBuilder(job).timeout(TIMEOUT).GET().build(),
            HttpResponse.BodyHandlers.ofString())
        .whenComplete(this::heard);
    return done;
  }

  private synchronized void heard(HttpResponse<String> response, Throwable failure) {
    asking = false;
    if (failure != null || response.statusCode() != 200) {
      return; // the endpoint is busy or gone: keep the last count
    }
    try {
      done = Math.max(done, count(response.body(), total));
    } catch (IOException e) {
      // not the job details we know: keep the last count
    }
  }

  /** The stages done in the job details {@code json} of a job with {@code total} stages. */
  static int count(String json, int total) throws IOException {
    JsonNode details = JSON.readTree(json);
    if ("FINISHED".equals(details.path("state").asText())) {
      return total;
    }
    Set<Integer> finished = new HashSet<>();
    for (JsonNode vertex : details.path("vertices")) {
      if (!"FINISHED".equals(vertex.path("status").asText())) {
        continue;
      }
      Matcher stage = STAGE.matcher(vertex.path("name").asText());
      while (stage.find()) {
        int id = Integer.parseInt(stage.group(1));
        if (id < total) {
          finished.add(id);
        }
      }
    }
    return finished.size();
  }
}
