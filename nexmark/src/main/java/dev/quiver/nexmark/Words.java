package dev.quiver.nexmark;

/** The spec's random words, written as ASCII bytes into a caller's buffer. */
final class Words {
  private static final int MIN_LENGTH = 3;

  private Words() {}

  /**
   * Writes a word of {@code 3 .. maxLength-1} characters at {@code buffer[at]}: each a random
   * lowercase letter, or {@code special} with probability 1/13; a {@code special} space at either
   * end is trimmed (as the spec's {@code String.trim()} does). Returns the length written.
   */
  static int write(EventRandom random, byte[] buffer, int at, int maxLength, byte special) {
    int length = MIN_LENGTH + random.nextInt(maxLength - MIN_LENGTH);
    for (int i = 0; i < length; i++) {
      buffer[at + i] = random.nextInt(13) == 0 ? special : (byte) ('a' + random.nextInt(26));
    }
    if (special != ' ') {
      return length;
    }
    int start = at;
    int end = at + length;
    while (start < end && buffer[start] == ' ') {
      start++;
    }
    while (end > start && buffer[end - 1] == ' ') {
      end--;
    }
    if (start > at) {
      System.arraycopy(buffer, start, buffer, at, end - start);
    }
    return end - start;
  }
}
