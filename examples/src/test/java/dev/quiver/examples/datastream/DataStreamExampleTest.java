package dev.quiver.examples.datastream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Runs the DataStream example as its main does; checks the files its sink wrote. */
@ExtendWith(ArrowLeakCheck.class)
class DataStreamExampleTest {
  @Test
  void pageTotalsReachTheFileSink(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    List<String> lines =
        DataStreamExample.run(dir, new PrintStream(text, true, StandardCharsets.UTF_8));

    Map<String, long[]> totals = new TreeMap<>(); // views, sum, max
    for (long v = 0; v < DataStreamExample.VIEWS; v++) {
      int millis = DataStreamExample.millis(v);
      if (millis >= 1000) {
        String page = DataStreamExample.PAGES.get((int) (v % DataStreamExample.PAGES.size()));
        long[] acc = totals.computeIfAbsent(page, p -> new long[3]);
        acc[0]++;
        acc[1] += millis;
        acc[2] = Math.max(acc[2], millis);
      }
    }
    List<String> expected = new ArrayList<>();
    totals.forEach((page, t) -> expected.add(page + "," + t[0] + "," + t[1] + "," + t[2]));

    assertThat(lines).isEqualTo(expected); // both sorted
    assertThat(DataStreamExample.readLines(dir)).isEqualTo(expected); // committed, not in progress
    assertThat(text.toString(StandardCharsets.UTF_8)).contains("SHUFFLE").contains("Scan[views");
  }
}
