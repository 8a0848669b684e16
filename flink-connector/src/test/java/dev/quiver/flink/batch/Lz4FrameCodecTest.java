package dev.quiver.flink.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class Lz4FrameCodecTest {
  private final Lz4FrameCodec codec = new Lz4FrameCodec();

  private static byte[] data(int length, int alphabet) {
    Random random = new Random(length);
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) random.nextInt(alphabet);
    }
    return bytes;
  }

  private static ArrowBuf buffer(BufferAllocator allocator, byte[] bytes) {
    ArrowBuf buffer = allocator.buffer(Math.max(1, bytes.length));
    buffer.setBytes(0, bytes);
    buffer.writerIndex(bytes.length);
    return buffer;
  }

  private static byte[] bytes(ArrowBuf buffer, long from) {
    byte[] bytes = new byte[(int) (buffer.writerIndex() - from)];
    buffer.getBytes(from, bytes);
    return bytes;
  }

  @Test
  void roundTripsSmallLargeAndIncompressibleBuffers(BufferAllocator allocator) {
    for (byte[] original :
        new byte[][] {data(1, 2), data(1000, 4), data(9 << 20, 3), data(70_000, 256)}) {
      ArrowBuf compressed = codec.compress(allocator, buffer(allocator, original));
      try (ArrowBuf back = codec.decompress(allocator, compressed)) {
        assertThat(bytes(back, 0)).isEqualTo(original);
      }
    }
  }

  @Test
  void writesStandardFramesThatLz4JavaReads(BufferAllocator allocator) throws IOException {
    byte[] original = data(5 << 20, 8);
    try (ArrowBuf compressed = codec.compress(allocator, buffer(allocator, original))) {
      byte[] frame = bytes(compressed, 8);
      try (LZ4FrameInputStream in =
          new LZ4FrameInputStream(new java.io.ByteArrayInputStream(frame))) {
        assertThat(in.readAllBytes()).isEqualTo(original);
      }
    }
  }

  @Test
  void readsFramesLz4JavaWrites(BufferAllocator allocator) throws IOException {
    byte[] original = data(300_000, 16);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(frame)) {
      out.write(original);
    }
    byte[] framed = frame.toByteArray();
    ArrowBuf input = allocator.buffer(8 + framed.length);
    input.setLong(0, original.length);
    input.setBytes(8, framed);
    input.writerIndex(8 + framed.length);
    try (ArrowBuf back = codec.decompress(allocator, input)) {
      assertThat(bytes(back, 0)).isEqualTo(original);
    }
  }

  @Test
  void corruptFramesFailWithoutLeaking(BufferAllocator allocator) {
    byte[] frame;
    try (ArrowBuf compressed = codec.compress(allocator, buffer(allocator, data(50_000, 6)))) {
      frame = bytes(compressed, 0);
    }
    Random random = new Random(7);
    int rejected = 0;
    for (int trial = 0; trial < 2000; trial++) {
      byte[] corrupt = frame.clone();
      corrupt[8 + random.nextInt(corrupt.length - 8)] ^= (byte) (1 + random.nextInt(255));
      ArrowBuf input = buffer(allocator, corrupt);
      try (ArrowBuf back = codec.decompress(allocator, input)) {
        assertThat(back.writerIndex()).isIn(0L, 50_000L, (long) corrupt.length - 8);
      } catch (RuntimeException e) {
        input.close(); // decompress consumes its input only when it succeeds
        rejected++;
      }
      assertThat(allocator.getAllocatedMemory()).isZero();
    }
    assertThat(rejected).isGreaterThan(100);
    try (ArrowBuf garbage = buffer(allocator, new byte[20])) {
      garbage.setLong(0, 100);
      assertThatThrownBy(() -> codec.decompress(allocator, garbage))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
