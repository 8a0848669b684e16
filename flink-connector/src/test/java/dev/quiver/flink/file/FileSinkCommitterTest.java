package dev.quiver.flink.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The global commit publishes the parts and nothing else: a writer attempt that died with its
 * TaskManager (found by TaskManagerKillsIT on a real cluster) leaves its unfinished temporary file
 * in the staging directory, and the rename must not publish it.
 */
class FileSinkCommitterTest {
  @TempDir Path dir;

  @Test
  void aLostWriterAttemptsUnfinishedFileIsNotPublished() throws IOException {
    Path staging = Files.createDirectories(dir.resolve(".out.staging-1"));
    Path part0 = Files.writeString(staging.resolve("part-00000.csv"), "n\n1\n");
    Path part1 = Files.writeString(staging.resolve("part-00001.csv"), "n\n2\n");
    Path lost = Files.createDirectories(staging.resolve(".part-00000.csv.tmp-lost"));
    Files.writeString(lost.resolve("part-0.csv"), "n\n1\n");
    Path out = dir.resolve("out");

    new FileSinkCommitter(staging, out)
        .commit(
            List.of(
                request(new FilePart(0, 2, part0.toString(), 1)),
                request(new FilePart(1, 2, part1.toString(), 1))));

    try (Stream<Path> published = Files.list(out)) {
      assertThat(published.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("part-00000.csv", "part-00001.csv");
    }
    assertThat(staging).doesNotExist();
  }

  private static CommitRequest<FilePart> request(FilePart part) {
    return new CommitRequest<>() {
      @Override
      public FilePart getCommittable() {
        return part;
      }

      @Override
      public int getNumberOfRetries() {
        return 0;
      }

      @Override
      public void signalFailedWithKnownReason(Throwable t) {}

      @Override
      public void signalFailedWithUnknownReason(Throwable t) {}

      @Override
      public void retryLater() {}

      @Override
      public void updateAndRetryLater(FilePart committable) {}

      @Override
      public void signalAlreadyCommitted() {}
    };
  }
}
