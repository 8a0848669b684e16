package dev.quiver.cli.tpcds;

import dev.quiver.cli.tpch.ResultComparison;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Compares an engine's answer to a TPC-DS query with DuckDB's: every row and column as {@link
 * ResultComparison} does (decimals exact at the smaller scale, doubles within 1e-9 relative), in
 * order where the query orders its result (an ORDER BY outside every {@code OVER (...)}), and as a
 * multiset of rows where it does not. {@code TpcdsQueriesTest} and the TPC-DS benchmark judge
 * answers with it.
 */
public final class TpcdsComparison {
  // An ORDER BY inside OVER (...) does not order the result.
  private static final Pattern OVER = Pattern.compile("(?is)\\bover\\s*\\([^)]*\\)");
  private static final Pattern ORDER_BY = Pattern.compile("(?is)\\border\\s+by\\b");

  private TpcdsComparison() {}

  /**
   * The first difference between {@code expected} and {@code actual}, the answers to {@code sql},
   * or null when they agree.
   */
  public static String difference(
      String sql, List<List<Object>> expected, List<List<Object>> actual) {
    String difference = ResultComparison.difference(expected, actual);
    if (difference != null && !orders(sql)) {
      difference = ResultComparison.difference(sorted(expected), sorted(actual));
    }
    return difference;
  }

  /** Whether the result is ordered: an ORDER BY outside every OVER (...). */
  public static boolean orders(String sql) {
    return ORDER_BY.matcher(OVER.matcher(sql).replaceAll("")).find();
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }
}
