package dev.quiver.operators.expr;

import org.apache.arrow.memory.ArrowBuf;

/** UTF-8 helpers over Arrow buffers: comparison, character counting and stepping. */
public final class Utf8 {
  private Utf8() {}

  /**
   * Compares two byte ranges as unsigned bytes, shorter first on a tie: the order of code points.
   * Returns -1, 0 or 1. Eight bytes are compared at a time.
   */
  public static int compare(
      ArrowBuf a, long aStart, int aLength, ArrowBuf b, long bStart, int bLength) {
    int common = Math.min(aLength, bLength);
    int at = 0;
    for (; at + 8 <= common; at += 8) {
      long u = a.getLong(aStart + at);
      long v = b.getLong(bStart + at);
      if (u != v) {
        return Long.compareUnsigned(Long.reverseBytes(u), Long.reverseBytes(v));
      }
    }
    for (; at < common; at++) {
      int u = a.getByte(aStart + at) & 0xFF;
      int v = b.getByte(bStart + at) & 0xFF;
      if (u != v) {
        return u < v ? -1 : 1;
      }
    }
    return Integer.compare(aLength, bLength);
  }

  /** Whether the ranges hold the same bytes. */
  public static boolean equals(
      ArrowBuf a, long aStart, int aLength, ArrowBuf b, long bStart, int bLength) {
    return aLength == bLength && compare(a, aStart, aLength, b, bStart, bLength) == 0;
  }

  /**
   * Whether {@code length} bytes at {@code start} of {@code buffer} equal {@code bytes[from..]}.
   */
  public static boolean regionMatches(
      ArrowBuf buffer, long start, byte[] bytes, int from, int length) {
    for (int j = 0; j < length; j++) {
      if (buffer.getByte(start + j) != bytes[from + j]) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code b} starts a character (is not a continuation byte 10xxxxxx). */
  public static boolean isLead(byte b) {
    return (b & 0xC0) != 0x80;
  }

  /** Number of characters in a byte range of valid UTF-8. */
  public static int length(ArrowBuf buffer, long start, int length) {
    int count = 0;
    for (int j = 0; j < length; j++) {
      count += isLead(buffer.getByte(start + j)) ? 1 : 0;
    }
    return count;
  }

  /** Byte length of the character whose first byte is {@code lead}. */
  public static int width(byte lead) {
    int b = lead & 0xFF;
    return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  }

  /** The code point of the {@code width}-byte UTF-8 sequence at {@code at}. */
  public static int decode(ArrowBuf buffer, long at, int width) {
    int b = buffer.getByte(at) & 0xFF;
    switch (width) {
      case 1:
        return b;
      case 2:
        return (b & 0x1F) << 6 | buffer.getByte(at + 1) & 0x3F;
      case 3:
        return (b & 0x0F) << 12
            | (buffer.getByte(at + 1) & 0x3F) << 6
            | buffer.getByte(at + 2) & 0x3F;
      default:
        return (b & 0x07) << 18
            | (buffer.getByte(at + 1) & 0x3F) << 12
            | (buffer.getByte(at + 2) & 0x3F) << 6
            | buffer.getByte(at + 3) & 0x3F;
    }
  }

  /**
   * The byte offset {@code chars} characters after {@code at}, or {@code end} when the range ends
   * first: {@code skip(data, start, end, n) - start} is the byte length of the first n characters.
   */
  public static int skip(ArrowBuf buffer, int at, int end, long chars) {
    for (long c = 0; c < chars && at < end; c++) {
      at += width(buffer.getByte(at));
    }
    return Math.min(at, end);
  }

  /**
   * The byte offset where the last {@code chars} characters of {@code [start, end)} begin, or
   * {@code start} when there are fewer.
   */
  public static int skipBack(ArrowBuf buffer, int start, int end, long chars) {
    int at = end;
    for (long c = 0; c < chars && at > start; c++) {
      do {
        at--;
      } while (at > start && !isLead(buffer.getByte(at)));
    }
    return at;
  }

  /**
   * The byte offset of the first occurrence of {@code needle[needleStart, needleStart +
   * needleLength)} in {@code [from, end)} of {@code buffer}, or -1. An empty needle is found at
   * {@code from}. On valid UTF-8 a byte match is a character match: it starts on a lead byte.
   */
  public static int indexOf(
      ArrowBuf buffer, int from, int end, ArrowBuf needle, int needleStart, int needleLength) {
    if (needleLength == 0) {
      return from;
    }
    byte first = needle.getByte(needleStart);
    for (int at = from, last = end - needleLength; at <= last; at++) {
      if (buffer.getByte(at) == first
          && equalRest(buffer, at + 1, needle, needleStart + 1, needleLength - 1)) {
        return at;
      }
    }
    return -1;
  }

  private static boolean equalRest(ArrowBuf a, long aStart, ArrowBuf b, long bStart, int length) {
    for (int j = 0; j < length; j++) {
      if (a.getByte(aStart + j) != b.getByte(bStart + j)) {
        return false;
      }
    }
    return true;
  }
}
