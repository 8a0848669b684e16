package dev.quiver.cli.format;

import static dev.quiver.cli.format.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class JsonLinesResultWriterTest {
  @Test
  void oneObjectPerRowWithTypedValuesAndNulls(BufferAllocator allocator) throws Exception {
    String json =
        TestBatches.write(
            ResultFormat.JSON,
            batch(
                allocator,
                new Long[] {1L, null},
                new String[] {"Smith, \"Jr.\"", null},
                new String[] {"1234.50", null},
                new String[] {"1998-12-01", null},
                new Long[] {912_500_000_000_000L, null},
                new Double[] {1e-5, null},
                new Boolean[] {false, null}));
    assertThat(json)
        .isEqualTo(
            "{\"id\":1,\"name\":\"Smith, \\\"Jr.\\\"\",\"price\":1234.50,\"day\":\"1998-12-01\","
                + "\"at\":\"1998-12-01T08:13:20\",\"ratio\":1.0E-5,\"ok\":false}\n"
                + "{\"id\":null,\"name\":null,\"price\":null,\"day\":null,\"at\":null,"
                + "\"ratio\":null,\"ok\":null}\n");
  }

  @Test
  void nonFiniteDoublesAreStrings(BufferAllocator allocator) throws Exception {
    String json =
        TestBatches.write(
            ResultFormat.JSON,
            batch(
                allocator,
                new Long[] {1L, 2L, 3L},
                new String[] {"", "", ""},
                new String[] {"0.00", "0.00", "0.00"},
                new String[] {null, null, null},
                new Long[] {null, null, null},
                new Double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY},
                new Boolean[] {true, true, true}));
    assertThat(json.lines().map(line -> line.replaceAll(".*\"ratio\":([^,]*),.*", "$1")))
        .containsExactly("\"NaN\"", "\"Infinity\"", "\"-Infinity\"");
  }

  @Test
  void stringsAreEscapedPerRfc8259() {
    StringBuilder out = new StringBuilder();
    JsonLinesResultWriter.quote("q\" b\\ n\n r\r t\t \b \f \u0001 \u001f é 日本 \uD83D\uDE00 /", out);
    assertThat(out.toString())
        .isEqualTo("\"q\\\" b\\\\ n\\n r\\r t\\t \\b \\f \\u0001 \\u001f é 日本 \uD83D\uDE00 /\"");
  }
}
