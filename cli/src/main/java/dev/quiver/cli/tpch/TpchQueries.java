package dev.quiver.cli.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The 22 TPC-H queries exactly as the specification writes them, with the default substitution
 * parameters (Q11 keeps {@code as value}, Q15 is a WITH clause, row limits are LIMIT), shipped as
 * resources {@code queries/qNN.sql} beside this class.
 */
public final class TpchQueries {
  /** The number of TPC-H queries. */
  public static final int COUNT = 22;

  private TpchQueries() {}

  /** The text of query {@code number} (1 to 22). */
  public static String text(int number) {
    if (number < 1 || number > COUNT) {
      throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + number);
    }
    String resource = String.format("queries/q%02d.sql", number);
    try (InputStream in = TpchQueries.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource + " beside TpchQueries");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Query numbers 1 to 22. */
  public static List<Integer> all() {
    List<Integer> numbers = new ArrayList<>();
    for (int q = 1; q <= COUNT; q++) {
      numbers.add(q);
    }
    return numbers;
  }
}
