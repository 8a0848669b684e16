package dev.quiver.benchmarks.nexmark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Nexmark query as nexmark-flink writes it ({@code src/main/resources/nexmark/qN.sql}): the
 * sink table's DDL and the {@code INSERT} into it, over the tables {@code person}, {@code auction}
 * and {@code bid}. {@link #statements} points the sink at the counting sink of a run.
 *
 * @param number the query number
 */
public record NexmarkQuery(int number) {
  /** The queries this runner has. */
  public static final List<Integer> AVAILABLE = List.of(0, 1, 2, 5, 7, 8, 17);

  /**
   * The queries a run without {@code --queries} runs: issue #18's six (q17, an unbounded GROUP BY
   * whose state grows with the auctions, is asked for by name).
   */
  public static final List<Integer> DEFAULT = List.of(0, 1, 2, 5, 7, 8);

  private static final Pattern STATEMENT_END = Pattern.compile(";\\s*(\\n|$)");
  private static final Pattern INSERT_INTO =
      Pattern.compile("INSERT\\s+INTO\\s+\\w+\\s+", Pattern.CASE_INSENSITIVE);
  private static final String BLACKHOLE = "'connector' = 'blackhole'";

  public NexmarkQuery {
    if (!AVAILABLE.contains(number)) {
      throw new IllegalArgumentException(
          "no Nexmark query q" + number + "; available: " + AVAILABLE);
    }
  }

  public String name() {
    return "q" + number;
  }

  /** The query's text as nexmark-flink has it (without its comment lines). */
  public String text() {
    String resource = "/nexmark/" + name() + ".sql";
    try (InputStream in = NexmarkQuery.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The sink DDL and the INSERT, the sink counting rows for run {@code run}. */
  public List<String> statements(String run) {
    StringBuilder code = new StringBuilder();
    for (String line : text().split("\n")) {
      if (!line.stripLeading().startsWith("--")) {
        code.append(line).append('\n');
      }
    }
    String sql = code.toString();
    if (!sql.contains(BLACKHOLE)) {
      throw new IllegalStateException(name() + " has no " + BLACKHOLE + " sink");
    }
    sql =
        sql.replace(
            BLACKHOLE,
            "'connector' = '" + CountingSinkFactory.IDENTIFIER + "', 'run' = '" + run + "'");
    List<String> statements = new ArrayList<>();
    for (String statement : STATEMENT_END.split(sql)) {
      if (!statement.isBlank()) {
        statements.add(statement.strip());
      }
    }
    return statements;
  }

  /**
   * The query as Quiver runs it: the {@code SELECT} of the {@code INSERT} (Quiver's caller consumes
   * the result where Flink writes into the sink), with one edit: identifiers nexmark-flink quotes
   * with backticks ({@code `dateTime`}, a keyword in both parsers) are quoted with double quotes,
   * the standard SQL quoting Quiver's parser takes.
   */
  public String select() {
    String insert = statements("-").get(1);
    Matcher into = INSERT_INTO.matcher(insert);
    if (!into.lookingAt()) {
      throw new IllegalStateException(name() + " does not INSERT INTO its sink: " + insert);
    }
    return insert.substring(into.end()).replace('`', '"');
  }

  /** The event kinds the query reads (the tables it names). */
  public List<String> tables() {
    return switch (number) {
      case 8 -> List.of("person", "auction");
      default -> List.of("bid");
    };
  }
}
