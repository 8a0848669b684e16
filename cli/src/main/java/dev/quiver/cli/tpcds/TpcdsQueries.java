package dev.quiver.cli.tpcds;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The 99 TPC-DS queries as DuckDB ships them (the templates with the validation substitution
 * parameters; see {@code tpcds/README.md} at the top of the repository), shipped as resources
 * {@code queries/NN.sql} beside this class.
 */
public final class TpcdsQueries {
  /** The number of TPC-DS queries. */
  public static final int COUNT = 99;

  private TpcdsQueries() {}

  /** The text of query {@code number} (1 to 99). */
  public static String text(int number) {
    if (number < 1 || number > COUNT) {
      throw new IllegalArgumentException("TPC-DS has queries 1 to 99, not " + number);
    }
    String resource = String.format("queries/%02d.sql", number);
    try (InputStream in = TpcdsQueries.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource + " beside TpcdsQueries");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Query numbers 1 to 99. */
  public static List<Integer> all() {
    List<Integer> numbers = new ArrayList<>();
    for (int q = 1; q <= COUNT; q++) {
      numbers.add(q);
    }
    return numbers;
  }
}
