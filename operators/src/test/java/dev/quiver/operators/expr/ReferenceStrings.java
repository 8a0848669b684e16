package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Reference.error;

import dev.quiver.error.ErrorCode;
import dev.quiver.plan.expr.Call;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Reference semantics of the string functions, on java.lang.String and code points. */
final class ReferenceStrings {
  private ReferenceStrings() {}

  static Object call(Call call, List<Object> v) {
    switch (call.function()) {
      case CONCAT:
        return (String) v.get(0) + v.get(1);
      case UPPER:
        return ((String) v.get(0)).toUpperCase(Locale.ROOT);
      case LOWER:
        // Code point by code point: String.toLowerCase's final-sigma rule looks at context.
        return ((String) v.get(0))
            .codePoints()
            .map(Character::toLowerCase)
            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
            .toString();
      case CHAR_LENGTH:
        String s = (String) v.get(0);
        return (long) s.codePointCount(0, s.length());
      case SUBSTRING:
        return substring(
            call, (String) v.get(0), (Long) v.get(1), v.size() > 2 ? (Long) v.get(2) : null);
      case TRIM_BOTH:
      case TRIM_LEADING:
      case TRIM_TRAILING:
        return trim(call, (String) v.get(0), v.size() > 1 ? (String) v.get(1) : " ");
      default:
        throw new IllegalArgumentException("no reference for " + call.function());
    }
  }

  private static String substring(Call call, String s, long start, Long length) {
    if (length != null && length < 0) {
      throw error(ErrorCode.INVALID_ARGUMENT, "negative substring length in " + call);
    }
    int[] cps = s.codePoints().toArray();
    long from = Math.max(start, 1);
    long to = length == null ? Long.MAX_VALUE : start + length; // exclusive, 1-based
    StringBuilder out = new StringBuilder();
    for (long pos = from; pos < to && pos <= cps.length; pos++) {
      out.appendCodePoint(cps[(int) pos - 1]);
    }
    return out.toString();
  }

  private static String trim(Call call, String s, String characters) {
    List<Integer> set = characters.codePoints().boxed().collect(Collectors.toList());
    int[] cps = s.codePoints().toArray();
    int from = 0;
    int to = cps.length;
    boolean leading = call.function() != dev.quiver.plan.expr.ScalarFunction.TRIM_TRAILING;
    boolean trailing = call.function() != dev.quiver.plan.expr.ScalarFunction.TRIM_LEADING;
    while (leading && from < to && set.contains(cps[from])) {
      from++;
    }
    while (trailing && to > from && set.contains(cps[to - 1])) {
      to--;
    }
    return new String(cps, from, to - from);
  }
}
