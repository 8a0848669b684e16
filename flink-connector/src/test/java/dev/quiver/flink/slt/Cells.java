package dev.quiver.flink.slt;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a row of a {@code table} directive into cells: comma separated, each unquoted cell
 * trimmed, and SQL-style single quotes ({@code 'a, b'}, {@code 'it''s'}, {@code ''}) for text that
 * has commas, surrounding spaces, or is empty or the word NULL.
 */
final class Cells {
  private Cells() {}

  /** One cell's text (without quotes) and whether it was quoted. */
  record Cell(String text, boolean quoted) {}

  static List<Cell> split(String line) {
    List<Cell> cells = new ArrayList<>();
    int i = 0;
    while (true) {
      while (i < line.length() && line.charAt(i) == ' ') {
        i++;
      }
      Cell cell;
      if (i < line.length() && line.charAt(i) == '\'') {
        StringBuilder text = new StringBuilder();
        i++;
        while (true) {
          if (i >= line.length()) {
            throw new IllegalArgumentException("unterminated quote in: " + line);
          }
          char c = line.charAt(i++);
          if (c == '\'') {
            if (i < line.length() && line.charAt(i) == '\'') {
              text.append('\'');
              i++;
            } else {
              break;
            }
          } else {
            text.append(c);
          }
        }
        while (i < line.length() && line.charAt(i) == ' ') {
          i++;
        }
        if (i < line.length() && line.charAt(i) != ',') {
          throw new IllegalArgumentException("text after a quoted value in: " + line);
        }
        cell = new Cell(text.toString(), true);
      } else {
        int comma = line.indexOf(',', i);
        int end = comma < 0 ? line.length() : comma;
        cell = new Cell(line.substring(i, end).strip(), false);
        i = end;
      }
      cells.add(cell);
      if (i >= line.length()) {
        return cells;
      }
      i++; // the comma
    }
  }
}
