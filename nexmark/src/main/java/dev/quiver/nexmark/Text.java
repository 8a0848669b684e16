package dev.quiver.nexmark;

import java.nio.charset.StandardCharsets;

/**
 * A string column value of a generated event: {@code length} ASCII bytes of {@code bytes} from
 * {@code offset}. The generator points it at a shared table (names, channels, the pool {@code
 * extra} is cut from) or fills its own scratch buffer; nothing is allocated per event. Valid until
 * the generator writes the next event into the same holder.
 */
public final class Text {
  private final byte[] scratch;
  private byte[] bytes;
  private int offset;
  private int length;
  private boolean constant;

  Text(int scratchBytes) {
    this.scratch = new byte[scratchBytes];
    this.bytes = scratch;
  }

  public byte[] bytes() {
    return bytes;
  }

  public int offset() {
    return offset;
  }

  public int length() {
    return length;
  }

  /**
   * Whether {@link #bytes()} is a table that never changes (names, channels, the {@code extra}
   * pool), so that a consumer may keep a reference to the slice instead of copying it; false for
   * the holder's scratch buffer, which the next event overwrites.
   */
  public boolean isConstant() {
    return constant;
  }

  /** Points at a constant. */
  void set(byte[] value) {
    set(value, 0, value.length);
  }

  /** Points at a slice of a constant table. */
  void set(byte[] value, int from, int count) {
    bytes = value;
    offset = from;
    length = count;
    constant = true;
  }

  /** The scratch buffer, to be filled and then {@link #useScratch published}. */
  byte[] scratch() {
    return scratch;
  }

  void useScratch(int from, int count) {
    bytes = scratch;
    offset = from;
    length = count;
    constant = false;
  }

  /** A copy as a Java string (tests, the row path's debugging; allocates). */
  @Override
  public String toString() {
    return new String(bytes, offset, length, StandardCharsets.US_ASCII);
  }
}
