package dev.quiver.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts shell input into statements: a SQL statement ends at a {@code ;} outside quotes and
 * comments, and may span lines; a line that starts with {@code \} where no statement is pending is
 * a meta-command, complete at its line's end.
 *
 * <pre>
 *   select 1;  select 'a;b'    ─► "select 1", then "select 'a;b'" pending
 *   ;                          ─► "select 'a;b'"
 *   \d lineitem                ─► "\d lineitem"
 * </pre>
 *
 * Quotes are SQL's: {@code '...'} strings and {@code "..."} (or Flink's {@code `...`}) identifiers,
 * each doubling its quote to escape it; comments are {@code -- ...} to the line's end and {@code /*
 * ... *}{@code /}.
 */
final class Statements {
  private final StringBuilder pending = new StringBuilder();

  /** Adds {@code line} (without its line break) and returns the statements it completes. */
  List<String> add(String line) {
    List<String> complete = new ArrayList<>();
    if (pending.toString().isBlank() && line.stripLeading().startsWith("\\")) {
      pending.setLength(0);
      complete.add(line.strip());
      return complete;
    }
    pending.append(line).append('\n');
    int start = 0;
    for (int end : ends(pending)) {
      String statement = pending.substring(start, end).strip();
      if (!statement.isEmpty()) {
        complete.add(statement);
      }
      start = end + 1;
    }
    pending.delete(0, start);
    if (pending.toString().isBlank()) {
      pending.setLength(0);
    }
    return complete;
  }

  /** The text of an unfinished statement (blank if none): what end of input leaves over. */
  String pending() {
    return pending.toString().strip();
  }

  /** Whether {@code text} ends a statement (or is a meta-command): the shell may run it. */
  static boolean complete(String text) {
    if (text.isBlank() || text.stripLeading().startsWith("\\")) {
      return true;
    }
    List<Integer> ends = ends(text);
    return !ends.isEmpty() && text.substring(ends.get(ends.size() - 1) + 1).isBlank();
  }

  /** The positions of the {@code ;} that end statements in {@code text}. */
  private static List<Integer> ends(CharSequence text) {
    List<Integer> ends = new ArrayList<>();
    char quote = 0; // ', " or ` while inside quotes
    boolean lineComment = false;
    boolean blockComment = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
      if (lineComment) {
        lineComment = c != '\n';
      } else if (blockComment) {
        if (c == '*' && next == '/') {
          blockComment = false;
          i++;
        }
      } else if (quote != 0) {
        if (c == quote) {
          if (next == quote) {
            i++; // a doubled quote is one quote character
          } else {
            quote = 0;
          }
        }
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if (c == '-' && next == '-') {
        lineComment = true;
        i++;
      } else if (c == '/' && next == '*') {
        blockComment = true;
        i++;
      } else if (c == ';') {
        ends.add(i);
      }
    }
    return ends;
  }
}
