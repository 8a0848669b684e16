package dev.quiver.operators.function.date;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code strftime} / {@code strptime} format, parsed once per call into a list of steps: a
 * specifier ({@code %Y}, {@code %-d}, ...) or a run of literal bytes. The specifiers are DuckDB's
 * (which are C's): {@code %a %A %w %u %d %-d %b %h %B %m %-m %y %-y %Y %G %H %-H %I %-I %p %M %-M
 * %S %-S %f %g %j %-j %U %W %V %z %Z %c %x %X %%}. An unknown specifier, a trailing {@code %} or an
 * empty format is an INVALID_ARGUMENT error, as in DuckDB. {@link #javaPattern} reads a Java
 * date-time pattern ({@code yyyy-MM-dd HH:mm:ss}, Flink's {@code DATE_FORMAT}) into the same steps.
 */
final class DateFormat {
  static final byte[][] DAYS = names("Sunday Monday Tuesday Wednesday Thursday Friday Saturday");
  static final byte[][] MONTHS =
      names(
          "January February March April May June July August September October November"
              + " December");

  /** The specifier of each step, or 0 for a literal (its bytes in {@link #literals}). */
  final char[] specs;

  /** Whether the specifier had the {@code -} flag (no padding). */
  final boolean[] unpadded;

  final byte[][] literals;
  final String text;

  private DateFormat(String text, char[] specs, boolean[] unpadded, byte[][] literals) {
    this.text = text;
    this.specs = specs;
    this.unpadded = unpadded;
    this.literals = literals;
  }

  static DateFormat parse(String function, String format) {
    if (format.isEmpty()) {
      throw invalid(function, format, "the format is empty");
    }
    Steps steps = new Steps();
    ByteArrayOutputStream literal = steps.literal;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '%') {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < format.length()) {
          bytes = format.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        literal.writeBytes(bytes);
        continue;
      }
      if (i + 1 == format.length()) {
        throw invalid(function, format, "a trailing %");
      }
      char spec = format.charAt(++i);
      boolean noPad = false;
      if (spec == '-') {
        if (i + 1 == format.length() || "dmyHIMSj".indexOf(format.charAt(i + 1)) < 0) {
          throw invalid(function, format, "unknown specifier %-");
        }
        noPad = true;
        spec = format.charAt(++i);
      }
      if (spec == '%') {
        literal.write('%');
        continue;
      }
      if ("aAwudbhBmyYGHIpMSfgjUWVzZcxX".indexOf(spec) < 0) {
        throw invalid(function, format, "unknown specifier %" + spec);
      }
      steps.spec(spec, noPad);
    }
    return steps.build(format);
  }

  /**
   * A Java date-time pattern, as Flink's {@code DATE_FORMAT} takes it ({@code
   * java.time.format.DateTimeFormatter} letters, which Flink applies to the timestamp's local date
   * and time): {@code y yyyy} or {@code u uuuu} (year), {@code yy uu} (two digits), {@code M MM MMM
   * MMMM} (month), {@code d dd}, {@code H HH}, {@code h hh} (1-12), {@code m mm}, {@code s ss},
   * {@code SSS} (milliseconds) and {@code SSSSSS} (microseconds), {@code E..EEE EEEE} (English day
   * name), {@code a} (AM/PM), {@code D DDD} (day of year), text in single quotes ({@code ''} is one
   * quote), and any character that is not an ASCII letter. Other letters (eras, weeks, zones,
   * localized fields) and other counts are an INVALID_ARGUMENT error.
   */
  static DateFormat javaPattern(String function, String pattern) {
    if (pattern.isEmpty()) {
      throw invalid(function, pattern, "the format is empty");
    }
    Steps steps = new Steps();
    ByteArrayOutputStream literal = steps.literal;
    for (int i = 0; i < pattern.length(); ) {
      char c = pattern.charAt(i);
      if (c == '\'') {
        int close = pattern.indexOf('\'', i + 1);
        if (close == i + 1) { // '' is a quote
          literal.write('\'');
          i += 2;
          continue;
        }
        if (close < 0) {
          throw invalid(function, pattern, "an unclosed quote at position " + (i + 1));
        }
        literal.writeBytes(pattern.substring(i + 1, close).getBytes(StandardCharsets.UTF_8));
        i = close + 1;
        if (i < pattern.length() && pattern.charAt(i) == '\'') { // 'o''clock'
          literal.write('\'');
        }
        continue;
      }
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
        int end = i + (Character.isHighSurrogate(c) && i + 1 < pattern.length() ? 2 : 1);
        literal.writeBytes(pattern.substring(i, end).getBytes(StandardCharsets.UTF_8));
        i = end;
        continue;
      }
      int count = 1;
      while (i + count < pattern.length() && pattern.charAt(i + count) == c) {
        count++;
      }
      char spec = javaLetter(function, pattern, c, count);
      steps.spec(spec, count == 1 && "dmHIMSj".indexOf(spec) >= 0);
      i += count;
    }
    return steps.build(pattern);
  }

  /** The specifier of {@code count} pattern letters {@code c}. */
  private static char javaLetter(String function, String pattern, char c, int count) {
    char spec =
        switch (c) {
          case 'y', 'u' -> count == 2 ? 'y' : count == 1 || count == 4 ? 'Y' : '?';
          case 'M' -> count <= 2 ? 'm' : count == 3 ? 'b' : count == 4 ? 'B' : '?';
          case 'd' -> count <= 2 ? 'd' : '?';
          case 'H' -> count <= 2 ? 'H' : '?';
          case 'h' -> count <= 2 ? 'I' : '?';
          case 'm' -> count <= 2 ? 'M' : '?';
          case 's' -> count <= 2 ? 'S' : '?';
          case 'S' -> count == 3 ? 'g' : count == 6 ? 'f' : '?';
          case 'E' -> count <= 3 ? 'a' : count == 4 ? 'A' : '?';
          case 'a' -> count == 1 ? 'p' : '?';
          case 'D' -> count == 1 || count == 3 ? 'j' : '?';
          default -> '?';
        };
    if (spec == '?') {
      throw invalid(
          function,
          pattern,
          "the pattern letters "
              + String.valueOf(c).repeat(count)
              + " are not supported (yyyy yy M MM MMM MMMM d dd H HH h hh m mm s ss SSS SSSSSS E"
              + " EEEE a D DDD, and text in single quotes)");
    }
    return spec;
  }

  /** The steps of a format as it is read: literal bytes pending, then a specifier, .... */
  private static final class Steps {
    final ByteArrayOutputStream literal = new ByteArrayOutputStream();
    private final List<Character> specs = new ArrayList<>();
    private final List<Boolean> unpadded = new ArrayList<>();
    private final List<byte[]> literals = new ArrayList<>();

    /** The pending literal as a step, then specifier {@code spec}. */
    void spec(char spec, boolean noPad) {
      endLiteral();
      specs.add(spec);
      unpadded.add(noPad);
      literals.add(null);
    }

    private void endLiteral() {
      if (literal.size() > 0) {
        specs.add('\0');
        unpadded.add(false);
        literals.add(literal.toByteArray());
        literal.reset();
      }
    }

    DateFormat build(String text) {
      endLiteral();
      char[] specArray = new char[specs.size()];
      boolean[] unpaddedArray = new boolean[specs.size()];
      for (int i = 0; i < specArray.length; i++) {
        specArray[i] = specs.get(i);
        unpaddedArray[i] = unpadded.get(i);
      }
      return new DateFormat(text, specArray, unpaddedArray, literals.toArray(new byte[0][]));
    }
  }

  private static QuiverException invalid(String function, String format, String detail) {
    return new QuiverException(
        ErrorCode.INVALID_ARGUMENT,
        function + ": cannot use the format '" + format + "': " + detail);
  }

  private static byte[][] names(String spaced) {
    String[] words = spaced.split(" ");
    byte[][] bytes = new byte[words.length][];
    for (int i = 0; i < words.length; i++) {
      bytes[i] = words[i].getBytes(StandardCharsets.US_ASCII);
    }
    return bytes;
  }
}
