package dev.quiver.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Query lists of {@code quiver tpch} and {@code quiver tpcds}: {@code all} or {@code 1,3,5-7}. */
final class QueryNumbers {
  private QueryNumbers() {}

  /** {@code all}, or numbers and ranges {@code 1,3,5-7}, each in 1..count; sorted, no repeats. */
  static List<Integer> parse(String text, int count) {
    if (text.strip().equalsIgnoreCase("all")) {
      List<Integer> all = new ArrayList<>();
      for (int q = 1; q <= count; q++) {
        all.add(q);
      }
      return all;
    }
    TreeSet<Integer> numbers = new TreeSet<>();
    for (String part : text.split(",", -1)) {
      String item = part.strip();
      int dash = item.indexOf('-', 1);
      int from = number(dash < 0 ? item : item.substring(0, dash), text, count);
      int to = dash < 0 ? from : number(item.substring(dash + 1), text, count);
      if (to < from) {
        throw new IllegalArgumentException("empty range " + item + " in '" + text + "'");
      }
      for (int q = from; q <= to; q++) {
        numbers.add(q);
      }
    }
    return List.copyOf(numbers);
  }

  private static int number(String text, String list, int count) {
    try {
      int q = Integer.parseInt(text.strip());
      if (q >= 1 && q <= count) {
        return q;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "expected all or query numbers 1 to " + count + " like 1,3,5-7, not '" + list + "'");
  }
}
