package dev.quiver.cli.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * Columns aligned for people: a header, a separator line, then the rows; columns are separated by
 * {@code " | "}, numbers right-aligned, text left-aligned, and no line has trailing spaces.
 *
 * <pre>
 *   name  |  price | shipped
 *   ------+--------+-----------
 *   bolt  |   0.25 | 1998-12-01
 *   screw | 120.00 | NULL
 * </pre>
 *
 * Control characters in a cell are shown escaped ({@code \n}, {@code \t}, ...) so that every row
 * stays on one line. Widths count code points, so wide (East Asian) characters misalign.
 */
public final class TextTable {
  private final String[] headers;
  private final boolean[] rightAligned;
  private final List<String[]> rows = new ArrayList<>();

  /** A table with {@code headers}; column i is right-aligned if {@code rightAligned[i]}. */
  public TextTable(List<String> headers, boolean[] rightAligned) {
    requireNonNull(headers, "headers is null");
    if (headers.size() != rightAligned.length) {
      throw new IllegalArgumentException("one alignment per header");
    }
    this.headers = headers.stream().map(TextTable::visible).toArray(String[]::new);
    this.rightAligned = rightAligned.clone();
  }

  /** Adds a row; {@code cells} are shown as they are (after escaping control characters). */
  public void add(String... cells) {
    if (cells.length != headers.length) {
      throw new IllegalArgumentException(
          cells.length + " cells for " + headers.length + " columns");
    }
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = visible(cells[i]);
    }
    rows.add(row);
  }

  /** The number of rows added. */
  public int size() {
    return rows.size();
  }

  /** Writes the header, the separator and every row, each line ended by {@code \n}. */
  public void render(Writer out) throws IOException {
    int[] widths = new int[headers.length];
    for (int i = 0; i < headers.length; i++) {
      widths[i] = width(headers[i]);
    }
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], width(row[i]));
      }
    }
    out.write(line(headers, widths, rightAligned));
    out.write(separator(widths));
    for (String[] row : rows) {
      out.write(line(row, widths, rightAligned));
    }
  }

  /** One row padded to {@code widths}, ended by {@code \n}; a longer cell widens its column. */
  public static String line(String[] cells, int[] widths, boolean[] rightAligned) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        line.append(" | ");
      }
      int padding = Math.max(0, widths[i] - width(cells[i]));
      if (rightAligned[i]) {
        line.append(" ".repeat(padding)).append(cells[i]);
      } else {
        line.append(cells[i]).append(" ".repeat(padding));
      }
    }
    return stripTrailing(line) + "\n";
  }

  /** The line under the header: dashes as wide as each column, joined by {@code -+-}. */
  public static String separator(int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < widths.length; i++) {
      if (i > 0) {
        line.append("-+-");
      }
      line.append("-".repeat(widths[i]));
    }
    return line.append('\n').toString();
  }

  private static String stripTrailing(StringBuilder line) {
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == ' ') {
      end--;
    }
    return line.substring(0, end);
  }

  static int width(String text) {
    return text.codePointCount(0, text.length());
  }

  /** {@code text} with control characters escaped, so that it fits on one line. */
  static String visible(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String escape =
          switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : null;
          };
      if (escape != null && out == null) {
        out = new StringBuilder(text.length() + 8).append(text, 0, i);
      }
      if (out != null) {
        if (escape != null) {
          out.append(escape);
        } else {
          out.append(c);
        }
      }
    }
    return out == null ? text : out.toString();
  }
}
