package dev.quiver.examples.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The few calls of Flink's REST API a job submission needs, as a user without Flink's client would
 * make them: upload a jar ({@code POST /jars/upload}, multipart), run it ({@code POST
 * /jars/:jarid/run} with {@code programArgsList}), follow the job ({@code GET /jobs/:jobid}).
 */
final class FlinkRest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> ENDED = Set.of("FINISHED", "FAILED", "CANCELED");
  private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);

  private final URI base;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  FlinkRest(URI base) {
    this.base = base;
  }

  JsonNode get(String path) throws IOException {
    return send(HttpRequest.newBuilder(base.resolve(path)).GET());
  }

  /** Uploads {@code jar}; returns its id for {@link #runJar}. */
  String uploadJar(Path jar) throws IOException {
    String boundary = "quiver-" + UUID.randomUUID();
    BodyPublisher body =
        BodyPublishers.concat(
            BodyPublishers.ofString(
                "--"
                    + boundary
                    + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                    + jar.getFileName()
                    + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n"),
            BodyPublishers.ofFile(jar),
            BodyPublishers.ofString("\r\n--" + boundary + "--\r\n"));
    JsonNode answer =
        send(
            HttpRequest.newBuilder(base.resolve("/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(body));
    // {"filename": "<upload dir>/<uuid>_quiver-job.jar", "status": "success"}
    return Path.of(answer.path("filename").asText()).getFileName().toString();
  }

  /** Runs the main class of an uploaded jar with {@code args}; returns the job's id. */
  String runJar(String jarId, List<String> args) throws IOException {
    String body = JSON.writeValueAsString(Map.of("programArgsList", args));
    JsonNode answer =
        send(
            HttpRequest.newBuilder(base.resolve("/jars/" + jarId + "/run"))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString(body, UTF_8)));
    String job = answer.path("jobid").asText("");
    if (job.isEmpty()) {
      throw new IllegalStateException("no job id in the answer to /jars/:jarid/run: " + answer);
    }
    return job;
  }

  void deleteJar(String jarId) throws IOException {
    send(HttpRequest.newBuilder(base.resolve("/jars/" + jarId)).DELETE());
  }

  /** Waits until the job has ended; returns its final {@code /jobs/:jobid} answer. */
  JsonNode awaitJob(String jobId, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    JsonNode job = get("/jobs/" + jobId);
    while (!ENDED.contains(job.path("state").asText())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "job " + jobId + " has not ended in " + timeout + ": " + job);
      }
      Thread.sleep(200);
      job = get("/jobs/" + jobId);
    }
    return job;
  }

  /** The ids of the TaskManagers that ran tasks of the job. */
  Set<String> taskManagersOf(String jobId) throws IOException {
    Set<String> taskManagers = new TreeSet<>();
    for (JsonNode vertex : get("/jobs/" + jobId).path("vertices")) {
      String path = "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/taskmanagers";
      for (JsonNode taskManager : get(path).path("taskmanagers")) {
        taskManagers.add(taskManager.path("taskmanager-id").asText());
      }
    }
    return taskManagers;
  }

  /**
   * Subtask {@code index} of the job's vertex whose name contains {@code operator} (the vertex of
   * the operator chain it is part of), as {@code /jobs/:jobid/vertices/:vertexid} lists it now: its
   * {@code status}, {@code attempt} and {@code taskmanager-id} among others.
   */
  JsonNode subtask(String jobId, String operator, int index) throws IOException {
    for (JsonNode vertex : get("/jobs/" + jobId).path("vertices")) {
      if (vertex.path("name").asText().contains(operator)) {
        String path = "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText();
        for (JsonNode subtask : get(path).path("subtasks")) {
          if (subtask.path("subtask").asInt() == index) {
            return subtask;
          }
        }
      }
    }
    throw new IllegalStateException(
        "job " + jobId + " has no subtask " + index + " of " + operator);
  }

  /** The ids of the jobs the cluster runs now. */
  Set<String> runningJobs() throws IOException {
    Set<String> jobs = new TreeSet<>();
    for (JsonNode job : get("/jobs/overview").path("jobs")) {
      if (job.path("state").asText().equals("RUNNING")) {
        jobs.add(job.path("jid").asText());
      }
    }
    return jobs;
  }

  /** The root exception of a failed job, as the cluster reports it. */
  String failure(String jobId) throws IOException {
    return get("/jobs/" + jobId + "/exceptions").path("exceptionHistory").toString();
  }

  private JsonNode send(HttpRequest.Builder request) throws IOException {
    try {
      var response = http.send(request.timeout(REQUEST_TIMEOUT).build(), BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IOException(
            response.request().method()
                + " "
                + response.uri()
                + ": HTTP "
                + response.statusCode()
                + " "
                + response.body());
      }
      return JSON.readTree(response.body().isEmpty() ? "{}" : response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
