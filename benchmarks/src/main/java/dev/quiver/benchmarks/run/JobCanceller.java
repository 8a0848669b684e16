package dev.quiver.benchmarks.run;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Cancels a job through the REST endpoint of the MiniCluster it runs on ({@code PATCH
 * /jobs/<id>?mode=cancel}): a Quiver session hands out a job's id but not its client, and the
 * thread reading the result is blocked in it.
 */
final class JobCanceller {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final int port;

  JobCanceller(int port) {
    this.port = port;
  }

  /** Asks the cluster to cancel job {@code jobId} (hex); reports and swallows failures. */
  void cancel(String jobId) {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/jobs/" + jobId + "?mode=cancel"))
            .method("PATCH", HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(30))
            .build();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        System.out.println(
            "  cancelling job "
                + jobId
                + ": HTTP "
                + response.statusCode()
                + " "
                + response.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      System.out.println("  cannot cancel job " + jobId + ": " + e);
    }
  }
}
