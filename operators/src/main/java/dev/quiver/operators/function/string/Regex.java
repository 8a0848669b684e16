package dev.quiver.operators.function.string;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Errors;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What the regular-expression functions share: DuckDB's option letters, and the pattern of a row,
 * compiled once when it is a literal (the usual case) and otherwise again only when it changes from
 * the previous row.
 *
 * <p>DuckDB matches with RE2; Quiver with java.util.regex over {@link Utf8Chars} (Java has no
 * matcher over UTF-8 bytes, and RE2 has no Java port in the build). The syntax is nearly the same
 * for the common cases; the known differences:
 *
 * <ul>
 *   <li>Java backtracks: a pattern such as {@code (a*)*b} can take exponential time where RE2 is
 *       linear.
 *   <li>Java accepts backreferences ({@code \1}) and lookaround ({@code (?=...)}), which RE2 (so
 *       DuckDB) rejects as errors.
 *   <li>RE2's POSIX classes {@code [[:alpha:]]} are rewritten to Java's {@code \p{Alpha}} (ASCII,
 *       as in RE2); Java would otherwise read them as a set of the letters.
 *   <li>{@code $} without the 'm' option: Java also matches before a final {@code \n}, RE2 only at
 *       the very end ({@code \z} behaves the same in both).
 *   <li>Only {@code \n} ends a line (Java's UNIX_LINES, as in RE2); {@code .} does not match it
 *       unless the 's' option is given, as in DuckDB.
 * </ul>
 */
final class Regex {
  private static final String[][] POSIX_CLASSES = {
    {"[:alnum:]", "\\p{Alnum}"},
    {"[:alpha:]", "\\p{Alpha}"},
    {"[:blank:]", "\\p{Blank}"},
    {"[:cntrl:]", "\\p{Cntrl}"},
    {"[:digit:]", "\\p{Digit}"},
    {"[:graph:]", "\\p{Graph}"},
    {"[:lower:]", "\\p{Lower}"},
    {"[:print:]", "\\p{Print}"},
    {"[:punct:]", "\\p{Punct}"},
    {"[:space:]", "\\s"},
    {"[:upper:]", "\\p{Upper}"},
    {"[:word:]", "\\w"},
    {"[:xdigit:]", "\\p{XDigit}"},
  };

  private final String text;
  private final int flags;
  private final Pattern literal;

  /**
   * For the call printed as {@code text} with pattern argument {@code pattern} and java.util.regex
   * {@code flags} (from {@link #flags}): a literal pattern is compiled here, once.
   */
  Regex(String text, Expr pattern, int flags) {
    this.text = text;
    this.flags = flags;
    Object value = Kernels.literalValue(pattern);
    this.literal = value == null ? null : compile((String) value, flags, text, -1);
  }

  /** The state of one batch's matching: evaluation of a batch is single-threaded, Regex is not. */
  Cursor cursor() {
    return new Cursor();
  }

  /** A reused matcher and character view, and the last non-literal pattern compiled. */
  final class Cursor {
    final Utf8Chars chars = new Utf8Chars();
    private Matcher matcher;
    private byte[] lastPattern = new byte[64];
    private int lastLength = -1;
    private Pattern last;

    /** The matcher of {@code row}: its pattern over the characters of its value of {@code s}. */
    Matcher matcher(Col s, Col pattern, int row) {
      Pattern compiled = literal != null ? literal : pattern(pattern, row);
      chars.reset(s.data, s.start(row), s.end(row));
      if (matcher == null) {
        matcher = compiled.matcher(chars);
      } else {
        if (matcher.pattern() != compiled) {
          matcher.usePattern(compiled);
        }
        matcher.reset(chars);
      }
      return matcher;
    }

    private Pattern pattern(Col pattern, int row) {
      int start = pattern.start(row);
      int length = pattern.end(row) - start;
      if (length != lastLength || !sameBytes(pattern, start, length)) {
        if (lastPattern.length < length) {
          lastPattern = new byte[Math.max(length, lastPattern.length * 2)];
        }
        pattern.data.getBytes(start, lastPattern, 0, length);
        lastLength = length;
        String value = new String(lastPattern, 0, length, StandardCharsets.UTF_8);
        last = compile(value, flags, text, row);
      }
      return last;
    }

    private boolean sameBytes(Col pattern, int start, int length) {
      for (int j = 0; j < length; j++) {
        if (pattern.data.getByte(start + j) != lastPattern[j]) {
          return false;
        }
      }
      return true;
    }
  }

  /** The java.util.regex flags for DuckDB's option letters; 'g' only where {@code global} may. */
  static int flags(Expr options, boolean replace, String text) {
    int flags = Pattern.UNIX_LINES;
    if (options == null) {
      return flags;
    }
    Object value = Kernels.literalValue(options);
    if (value == null) {
      throw new QuiverException(
          ErrorCode.INVALID_ARGUMENT, "the regex options must not be NULL in " + text);
    }
    for (char option : ((String) value).toCharArray()) {
      switch (option) {
        case 'c' -> flags &= ~(Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        case 'i' -> flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        case 's' -> flags |= Pattern.DOTALL;
        case 'm', 'n', 'p' -> flags &= ~Pattern.DOTALL;
        case 'l' -> flags |= Pattern.LITERAL;
        case 'g' -> {
          if (!replace) {
            throw new QuiverException(
                ErrorCode.INVALID_ARGUMENT,
                "option 'g' (global replace) is only valid for regexp_replace, in " + text);
          }
        }
        default ->
            throw new QuiverException(
                ErrorCode.INVALID_ARGUMENT,
                "unknown regex option '" + option + "' (c, i, l, m, n, p, s, g) in " + text);
      }
    }
    return flags;
  }

  /** Whether the literal options of a call hold 'g'. */
  static boolean global(Expr options) {
    Object value = options == null ? null : Kernels.literalValue(options);
    return value != null && ((String) value).indexOf('g') >= 0;
  }

  /** Whether {@code arg} is a literal (the regex options must be). */
  static boolean isLiteral(Expr arg) {
    return arg instanceof Literal;
  }

  private static Pattern compile(String pattern, int flags, String text, int row) {
    String java = pattern;
    if ((flags & Pattern.LITERAL) == 0 && java.indexOf("[:") >= 0) {
      for (String[] posix : POSIX_CLASSES) {
        java = java.replace(posix[0], posix[1]);
      }
    }
    try {
      return Pattern.compile(java, flags);
    } catch (PatternSyntaxException e) {
      String detail = "invalid regular expression '" + pattern + "': " + e.getDescription();
      throw row < 0
          ? new QuiverException(ErrorCode.INVALID_ARGUMENT, detail + " in " + text)
          : Errors.invalidArgument(text, row, detail);
    }
  }
}
