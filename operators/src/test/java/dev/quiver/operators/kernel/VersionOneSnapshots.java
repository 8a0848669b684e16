package dev.quiver.operators.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The version 1 byte arrays of the window join and the per-window operator (before they wrote
 * streams), as main's code wrote them: the same header behind version byte 1, then per input an
 * int32 length and the IPC stream, written by the array form of {@link BatchStreams#write} that the
 * old {@code WindowJoinSnapshot} / {@code WindowedSnapshot} called with the same batches in the
 * same order. Made from a version 2 state, whose header is the same and whose streams hold those
 * batches, so an old savepoint's restore can be compared with the new one's.
 */
public final class VersionOneSnapshots {
  private static final int HEADER_BYTES = 1 + 3 * Long.BYTES + 1; // both operators'
  private static final BatchStreams.Names NAMES =
      new BatchStreams.Names("a version 2 state", "rows", "rows");

  private VersionOneSnapshots() {}

  /** The version 1 array of {@code state}, a version 2 state with one stream per schema. */
  public static byte[] fromVersion2(byte[] state, BufferAllocator allocator, Schema... schemas) {
    assertThat(state[0]).as("a version 2 state").isEqualTo((byte) 2);
    ByteArrayOutputStream old = new ByteArrayOutputStream();
    old.write(1);
    old.write(state, 1, HEADER_BYTES - 1);
    ByteArrayInputStream in =
        new ByteArrayInputStream(state, HEADER_BYTES, state.length - HEADER_BYTES);
    for (Schema schema : schemas) {
      BatchStreams.write(
          old, schema, batches -> BatchStreams.readRoots(in, schema, allocator, batches, NAMES));
    }
    assertThat(in.available()).as("nothing after the streams").isZero();
    return old.toByteArray();
  }
}
