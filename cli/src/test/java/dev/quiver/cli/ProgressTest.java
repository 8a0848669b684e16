package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressTest {
  @Test
  void drawsOverItselfAndErasesItselfAtTheEnd() throws Exception {
    StringWriter err = new StringWriter();
    Progress progress = new Progress(new PrintWriter(err), true, "q01 (1/2)", true, 0);
    progress.addRows(1234);
    progress.draw();
    String line = err.toString();
    assertThat(line).startsWith("\rq01 (1/2)  ").endsWith(" s  1,234 rows").doesNotContain("\n");
    progress.quiet(() -> err.write("[output]"));
    int width = line.length() - 1;
    assertThat(err.toString()).isEqualTo(line + "\r" + " ".repeat(width) + "\r" + "[output]");
    progress.restart("q02 (2/2)");
    progress.draw();
    // The line as drawn (recomputing text() could read a later clock: 0.0 s vs 0.1 s).
    String drawn = err.toString();
    String second = drawn.substring(drawn.lastIndexOf('\r') + 1);
    progress.close();
    assertThat(err.toString()).endsWith("\r" + second + "\r" + " ".repeat(second.length()) + "\r");
    progress.draw(); // after close: nothing
    assertThat(err.toString()).endsWith("\r");
  }

  @Test
  void quickWorkGetsNoLine() {
    StringWriter err = new StringWriter();
    Progress progress = new Progress(new PrintWriter(err), true, "q", true, 60_000_000_000L);
    progress.draw();
    progress.close();
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void disabledWritesNothing() throws Exception {
    StringWriter err = new StringWriter();
    try (Progress progress = Progress.start(new PrintWriter(err), false, "query")) {
      progress.addRows(10);
      progress.draw();
      progress.quiet(() -> {});
    }
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void elapsedOnlyWithoutRows() {
    Progress progress = new Progress(new PrintWriter(new StringWriter()), true, "gen", false, 0);
    assertThat(progress.text()).matches("gen  \\d+\\.\\d s");
  }
}
