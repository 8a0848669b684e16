package dev.quiver.operators.expr;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A LIKE pattern compiled for matching UTF-8 bytes in place.
 *
 * <p>Common shapes take byte-level fast paths: {@code 'abc'} (equality), {@code 'abc%'} (prefix),
 * {@code '%abc'} (suffix), {@code '%abc%'} (contains) and {@code '%'}. Byte comparison is exact for
 * these because UTF-8 is self-synchronising: a character's bytes never match inside another
 * character. Any other pattern is split at {@code %} into segments of literal bytes and {@code _}
 * (one character, 1 to 4 bytes); the first segment is anchored at the start, the last at the end,
 * and each middle one matched at its leftmost position, which is optimal for fixed-length segments.
 * No backtracking, no regex, no allocation per row.
 */
final class LikePattern {
  enum Shape {
    EXACT,
    PREFIX,
    SUFFIX,
    CONTAINS,
    ANY,
    GENERAL
  }

  private static final int UNDERSCORE = -1;

  final Shape shape;
  private final byte[] literal; // the fixed bytes of the fast-path shapes
  private final int[][] segments; // GENERAL: byte values, or UNDERSCORE

  LikePattern(String pattern, Character escape) {
    List<int[]> parts = new ArrayList<>();
    List<Integer> current = new ArrayList<>();
    boolean underscore = false;
    for (int i = 0; i < pattern.length(); ) {
      int cp = pattern.codePointAt(i);
      i += Character.charCount(cp);
      if (escape != null && cp == escape) {
        cp = pattern.codePointAt(i);
        i += Character.charCount(cp);
        addBytes(current, cp);
      } else if (cp == '%') {
        parts.add(toArray(current));
        current.clear();
      } else if (cp == '_') {
        current.add(UNDERSCORE);
        underscore = true;
      } else {
        addBytes(current, cp);
      }
    }
    parts.add(toArray(current));
    this.segments = parts.toArray(new int[0][]);
    int last = segments.length - 1;
    if (underscore) {
      this.shape = Shape.GENERAL;
      this.literal = null;
    } else if (last == 0) {
      this.shape = Shape.EXACT;
      this.literal = bytes(segments[0]);
    } else if (allEmpty()) {
      this.shape = Shape.ANY;
      this.literal = null;
    } else if (last == 1 && segments[1].length == 0) {
      this.shape = Shape.PREFIX;
      this.literal = bytes(segments[0]);
    } else if (last == 1 && segments[0].length == 0) {
      this.shape = Shape.SUFFIX;
      this.literal = bytes(segments[1]);
    } else if (last == 2 && segments[0].length == 0 && segments[2].length == 0) {
      this.shape = Shape.CONTAINS;
      this.literal = bytes(segments[1]);
    } else {
      this.shape = Shape.GENERAL;
      this.literal = null;
    }
  }

  private boolean allEmpty() {
    for (int[] segment : segments) {
      if (segment.length > 0) {
        return false;
      }
    }
    return true;
  }

  private static void addBytes(List<Integer> out, int cp) {
    for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
      out.add(b & 0xFF);
    }
  }

  private static int[] toArray(List<Integer> values) {
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  private static byte[] bytes(int[] segment) {
    byte[] bytes = new byte[segment.length];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) segment[i];
    }
    return bytes;
  }

  /** Whether the bytes {@code [start, end)} of {@code data} match. */
  boolean matches(ArrowBuf data, int start, int end) {
    int length = end - start;
    switch (shape) {
      case EXACT:
        return length == literal.length && Utf8.regionMatches(data, start, literal, 0, length);
      case PREFIX:
        return length >= literal.length
            && Utf8.regionMatches(data, start, literal, 0, literal.length);
      case SUFFIX:
        return length >= literal.length
            && Utf8.regionMatches(data, end - literal.length, literal, 0, literal.length);
      case CONTAINS:
        return indexOf(data, start, end, literal) >= 0;
      case ANY:
        return true;
      default:
        return general(data, start, end);
    }
  }

  /** First position of {@code needle} in {@code [from, end)}, or -1. */
  static int indexOf(ArrowBuf data, int from, int end, byte[] needle) {
    if (needle.length == 0) {
      return from;
    }
    byte first = needle[0];
    for (int at = from, last = end - needle.length; at <= last; at++) {
      if (data.getByte(at) == first
          && Utf8.regionMatches(data, at + 1, needle, 1, needle.length - 1)) {
        return at;
      }
    }
    return -1;
  }

  private boolean general(ArrowBuf data, int start, int end) {
    int last = segments.length - 1;
    if (last == 0) {
      return matchAt(data, segments[0], start, end) == end;
    }
    int from = matchAt(data, segments[0], start, end);
    if (from < 0) {
      return false;
    }
    int until = matchBackward(data, segments[last], end, from);
    if (until < 0) {
      return false;
    }
    for (int s = 1; s < last; s++) {
      int[] segment = segments[s];
      int found = -1;
      for (int at = from;
          at <= until && found < 0;
          at += at < until ? Utf8.width(data.getByte(at)) : 1) {
        found = matchAt(data, segment, at, until);
      }
      if (found < 0) {
        return false;
      }
      from = found;
    }
    return true;
  }

  /** Matches {@code segment} at {@code at} within {@code [at, limit)}: the end position, or -1. */
  private static int matchAt(ArrowBuf data, int[] segment, int at, int limit) {
    for (int code : segment) {
      if (at >= limit) {
        return -1;
      }
      if (code == UNDERSCORE) {
        at += Utf8.width(data.getByte(at));
      } else if ((data.getByte(at++) & 0xFF) != code) {
        return -1;
      }
    }
    return at <= limit ? at : -1;
  }

  /**
   * Matches {@code segment} so that it ends at {@code end} and starts at or after {@code floor}.
   */
  private static int matchBackward(ArrowBuf data, int[] segment, int end, int floor) {
    int at = end;
    for (int j = segment.length - 1; j >= 0; j--) {
      if (at <= floor) {
        return -1;
      }
      if (segment[j] == UNDERSCORE) {
        at--;
        while (at > floor && !Utf8.isLead(data.getByte(at))) {
          at--;
        }
      } else if ((data.getByte(--at) & 0xFF) != segment[j]) {
        return -1;
      }
    }
    return at;
  }
}
