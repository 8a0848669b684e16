package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code echo '...' | quiver shell} as a user runs it: its own JVM, statements on a pipe. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShellProcessTest {
  @TempDir Path dir;

  @Test
  void runsThePipedStatementsAndExits() throws Exception {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    List<String> command = QuiverJvm.command("shell", "--parallelism", "1");
    Process shell =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      try (OutputStream stdin = shell.getOutputStream()) {
        stdin.write("select 1 as a;\nselect 2\n  as b;\n".getBytes(UTF_8));
      }
      assertThat(shell.waitFor(90, TimeUnit.SECONDS)).as("the shell exited").isTrue();
      assertThat(shell.exitValue()).as(Files.readString(err, UTF_8)).isZero();
      // The test class path's log configuration logs to stdout too: look at the shell's lines.
      String text = Files.readString(out, UTF_8);
      assertThat(text).contains("a\n-\n1\n(1 row)\nTime: ").contains("b\n-\n2\n(1 row)\nTime: ");
      assertThat(Pattern.compile("(?m)^Time: \\d+\\.\\d{3} s$").matcher(text).results()).hasSize(2);
    } finally {
      shell.destroyForcibly();
    }
  }
}
