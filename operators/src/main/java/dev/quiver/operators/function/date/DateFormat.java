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
 * empty format is an INVALID_ARGUMENT error, as in DuckDB.
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
    List<Character> specs = new ArrayList<>();
    List<Boolean> unpadded = new ArrayList<>();
    List<byte[]> literals = new ArrayList<>();
    ByteArrayOutputStream literal = new ByteArrayOutputStream();
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
      if (literal.size() > 0) {
        specs.add('\0');
        unpadded.add(false);
        literals.add(literal.toByteArray());
        literal.reset();
      }
      specs.add(spec);
      unpadded.add(noPad);
      literals.add(null);
    }
    if (literal.size() > 0) {
      specs.add('\0');
      unpadded.add(false);
      literals.add(literal.toByteArray());
    }
    char[] specArray = new char[specs.size()];
    boolean[] unpaddedArray = new boolean[specs.size()];
    for (int i = 0; i < specArray.length; i++) {
      specArray[i] = specs.get(i);
      unpaddedArray[i] = unpadded.get(i);
    }
    return new DateFormat(format, specArray, unpaddedArray, literals.toArray(new byte[0][]));
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
