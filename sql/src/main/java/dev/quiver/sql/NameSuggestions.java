package dev.quiver.sql;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "Did you mean" for the names a user mistypes. Calcite's validator says that a table or column
 * does not exist; this adds the closest known name when one is near enough (edit distance at most a
 * third of the name, ignoring case), so a message reads {@code Object 'lineitems' not found; did
 * you mean 'lineitem'?}.
 */
final class NameSuggestions {
  private static final Pattern UNKNOWN_TABLE = Pattern.compile("Object '([^']+)' not found");
  private static final Pattern UNKNOWN_COLUMN = Pattern.compile("Column '([^']+)' not found");

  private NameSuggestions() {}

  /** {@code message} with a suggestion appended when it names an unknown table or column. */
  static String addTo(String message, Catalog catalog) {
    if (message == null || message.contains("did you mean")) {
      return message;
    }
    Matcher table = UNKNOWN_TABLE.matcher(message);
    if (table.find()) {
      return withSuggestion(
          message,
          closest(table.group(1), catalog.tables().stream().map(CatalogTable::name).toList()));
    }
    Matcher column = UNKNOWN_COLUMN.matcher(message);
    if (column.find()) {
      return withSuggestion(
          message,
          closest(
              column.group(1),
              catalog.tables().stream()
                  .flatMap(t -> t.schema().columns().stream())
                  .map(c -> c.name())
                  .distinct()
                  .toList()));
    }
    return message;
  }

  private static String withSuggestion(String message, Optional<String> suggestion) {
    return suggestion.map(s -> message + "; did you mean '" + s + "'?").orElse(message);
  }

  /** The candidate nearest to {@code name}, if near enough to be a likely typo. */
  static Optional<String> closest(String name, Collection<String> candidates) {
    String wanted = name.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(wanted, candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    int allowed = Math.max(1, wanted.length() / 3);
    return best != null && bestDistance > 0 && bestDistance <= allowed
        ? Optional.of(best)
        : Optional.empty();
  }

  /** Levenshtein distance, two rows. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
