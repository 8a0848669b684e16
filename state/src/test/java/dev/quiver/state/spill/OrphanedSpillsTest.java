package dev.quiver.state.spill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.spill.SpillWriter;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spill directories of processes that were killed (SIGKILL: nothing of theirs ran) are deleted by
 * the next sweep; those of living processes, other or this one, never are. Real processes: the
 * operating system's file locks are what tells the two apart.
 */
@ExtendWith(ArrowLeakCheck.class)
class OrphanedSpillsTest {
  @TempDir Path tmp;
  private final List<Process> children = new ArrayList<>();

  @AfterEach
  void killChildren() throws InterruptedException {
    for (Process child : children) {
      child.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void aKilledProcessesDirectoryIsSweptLivingOnesAreNot(BufferAllocator allocator)
      throws Exception {
    Child killed = spill(tmp);
    Child living = spill(tmp);
    assertThat(spillFiles(killed.directory)).hasSize(1);

    killed.process.destroyForcibly(); // SIGKILL
    assertThat(killed.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(spillFiles(killed.directory)).as("what the kill left").hasSize(1);

    try (FileSpillSpace own = new FileSpillSpace(List.of(tmp), "own");
        SpillWriter writer = own.create(RandomBatches.ALL_TYPES, "own");
        VectorSchemaRoot batch =
            new RandomBatches(2).batch(RandomBatches.ALL_TYPES, 10, allocator)) {
      writer.write(batch);
      Path ownDirectory = own.directories().get(0);

      assertThat(FileSpillSpace.sweepOrphans(List.of(tmp))).isEqualTo(1);

      assertThat(killed.directory).doesNotExist();
      assertThat(SpillDirectoryLock.lockFile(killed.directory)).doesNotExist();
      assertThat(spillFiles(living.directory)).as("another living process's").hasSize(1);
      assertThat(spillFiles(ownDirectory)).as("this process's").hasSize(1);
      assertThat(FileSpillSpace.sweepOrphans(List.of(tmp))).isZero();
    }

    living.process.getOutputStream().close(); // it ends normally and deletes its own
    assertThat(living.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(living.process.exitValue()).isZero();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).as("nothing left in %s", tmp).isEmpty();
    }
  }

  @Test
  void directoriesWithoutALockFileAreNeverTouched() throws IOException {
    Path foreign = Files.createDirectories(tmp.resolve("quiver-spill-older-version"));
    Files.writeString(foreign.resolve("000001-sort-run.arrows"), "data");
    Files.writeString(tmp.resolve("quiver-spill-half.lock.new"), ""); // a lock being made

    assertThat(FileSpillSpace.sweepOrphans(List.of(tmp, tmp.resolve("missing")))).isZero();

    assertThat(foreign.resolve("000001-sort-run.arrows")).exists();
    assertThat(tmp.resolve("quiver-spill-half.lock.new")).exists();
  }

  private record Child(Process process, Path directory) {}

  private Child spill(Path root) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process process =
        new ProcessBuilder(
                java,
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                SpillingProcess.class.getName(),
                root.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    children.add(process);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the child's spill directory").isNotNull();
    return new Child(process, Path.of(line));
  }

  private static List<Path> spillFiles(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.toList();
    }
  }
}
