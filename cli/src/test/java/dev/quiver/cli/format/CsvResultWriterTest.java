package dev.quiver.cli.format;

import static dev.quiver.cli.format.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class CsvResultWriterTest {
  @Test
  void headerQuotingNullsAndEveryType(BufferAllocator allocator) throws Exception {
    String csv =
        TestBatches.write(
            ResultFormat.CSV,
            batch(
                allocator,
                new Long[] {1L, 2L, null},
                new String[] {"plain", "Smith, \"Jr.\"", null},
                new String[] {"1234.50", "-0.05", null},
                new String[] {"1998-12-01", "0001-01-01", null},
                new Long[] {912_500_000_000_000L, -1L, null},
                new Double[] {0.1, 1e-5, null},
                new Boolean[] {true, false, null}),
            batch(
                allocator,
                new Long[] {3L},
                new String[] {"line\nbreak\r\n"},
                new String[] {"1234567890123.99"},
                new String[] {"2024-02-29"},
                new Long[] {1_709_164_800_250_000L},
                new Double[] {1e20},
                new Boolean[] {true}));
    assertThat(csv)
        .isEqualTo(
            "id,name,price,day,at,ratio,ok\n"
                + "1,plain,1234.50,1998-12-01,1998-12-01T08:13:20,0.1,true\n"
                + "2,\"Smith, \"\"Jr.\"\"\",-0.05,0001-01-01,1969-12-31T23:59:59.999999,1.0E-5,false\n"
                + ",,,,,,\n"
                + "3,\"line\nbreak\r\n\",1234567890123.99,2024-02-29,2024-02-29T00:00:00.25,1.0E20,"
                + "true\n");
  }

  @Test
  void emptyStringIsQuotedToTellItFromNull(BufferAllocator allocator) throws Exception {
    String csv =
        TestBatches.write(
            ResultFormat.CSV,
            batch(
                allocator,
                new Long[] {1L, 2L},
                new String[] {"", null},
                new String[] {"0.00", "0.00"},
                new String[] {null, null},
                new Long[] {null, null},
                new Double[] {Double.NaN, Double.NEGATIVE_INFINITY},
                new Boolean[] {null, null}));
    assertThat(csv)
        .isEqualTo("id,name,price,day,at,ratio,ok\n1,\"\",0.00,,,NaN,\n2,,0.00,,,-Infinity,\n");
  }

  @Test
  void noRowsIsTheHeaderAlone(BufferAllocator allocator) throws Exception {
    String csv = TestBatches.write(ResultFormat.CSV, TestBatches.empty(allocator));
    assertThat(csv).isEqualTo("id,name,price,day,at,ratio,ok\n");
  }

  @Test
  void quotesOnlyWhatRfc4180Requires() {
    assertThat(CsvResultWriter.needsQuotes("a b;c\t'd'")).isFalse();
    assertThat(CsvResultWriter.needsQuotes("a,b")).isTrue();
    assertThat(CsvResultWriter.needsQuotes("a\"b")).isTrue();
    assertThat(CsvResultWriter.needsQuotes("a\rb")).isTrue();
    assertThat(CsvResultWriter.needsQuotes("a\nb")).isTrue();
    assertThat(CsvResultWriter.needsQuotes("")).isTrue();
  }
}
