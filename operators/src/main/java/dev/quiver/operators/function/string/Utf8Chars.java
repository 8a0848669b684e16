package dev.quiver.operators.function.string;

import dev.quiver.operators.expr.Utf8;
import org.apache.arrow.memory.ArrowBuf;

/**
 * One string value of an Arrow buffer as a {@link CharSequence} for java.util.regex, decoded into a
 * reused {@code char[]} (no allocation per row once it is large enough), with the byte offset of
 * every char so that match positions map back to the UTF-8 bytes. A row of ASCII needs no offset
 * table: char index and byte offset are the same.
 */
final class Utf8Chars implements CharSequence {
  private char[] chars = new char[64];
  private int[] offsets = new int[65];
  private int length;
  private int byteLength;
  private boolean ascii;

  /** Makes this the characters of {@code [start, end)} of {@code data}. */
  Utf8Chars reset(ArrowBuf data, int start, int end) {
    int bytes = end - start;
    if (bytes > chars.length) {
      chars = new char[Math.max(bytes, chars.length * 2)];
      offsets = new int[chars.length + 1];
    }
    byteLength = bytes;
    ascii = true;
    int n = 0;
    for (int at = start; at < end; ) {
      byte lead = data.getByte(at);
      if (lead >= 0) {
        if (!ascii) {
          offsets[n] = at - start;
        }
        chars[n++] = (char) lead;
        at++;
        continue;
      }
      if (ascii) {
        ascii = false;
        for (int j = 0; j < n; j++) {
          offsets[j] = j;
        }
      }
      int width = Utf8.width(lead);
      int cp = Utf8.decode(data, at, width);
      offsets[n] = at - start;
      if (Character.isBmpCodePoint(cp)) {
        chars[n++] = (char) cp;
      } else {
        chars[n] = Character.highSurrogate(cp);
        chars[n + 1] = Character.lowSurrogate(cp);
        offsets[n + 1] = at - start + width; // a position between the halves maps past both
        n += 2;
      }
      at += width;
    }
    offsets[n] = bytes;
    length = n;
    return this;
  }

  /** The byte offset, from the value's start, of char {@code index} (or the end). */
  int byteOffset(int index) {
    return ascii ? index : index == length ? byteLength : offsets[index];
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public char charAt(int index) {
    if (index >= length) {
      throw new IndexOutOfBoundsException(index);
    }
    return chars[index];
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new String(chars, start, end - start);
  }

  @Override
  public String toString() {
    return new String(chars, 0, length);
  }
}
