package dev.quiver.flink.batch;

import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow's LZ4_FRAME body compression done with lz4-java (the library Flink itself ships) straight
 * on off-heap buffers. Arrow Java's own LZ4 codec goes through commons-compress streams and three
 * heap copies per buffer, and leaks its output buffer when the input is corrupt.
 *
 * <p>Writes standard LZ4 frames with independent blocks of up to 4 MiB and the content size in the
 * header; reads such frames with the bounds-checked decompressor, so corrupt bytes end in an
 * exception and never in an out-of-bounds access. Frames with linked blocks or dictionaries are
 * rejected (Quiver never writes them).
 *
 * <pre>
 * frame: magic(4) FLG BD contentSize(8) HC  [blockSize(4) block]…  endMark(4)
 * </pre>
 */
final class Lz4FrameCodec extends AbstractCompressionCodec {
  private static final int MAGIC = 0x184D2204;
  private static final int BLOCK_SIZE = 4 << 20;
  private static final byte FLG = 0x68; // version 01, independent blocks, content size present
  private static final byte BD = 0x70; // 4 MiB maximum block size
  private static final int HEADER = 4 + 2 + 8 + 1;
  private static final int UNCOMPRESSED_BLOCK = 0x80000000;
  private static final long PREFIX = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;

  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.fastestInstance().safeDecompressor();
  private static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();

  @Override
  public CompressionUtil.CodecType getCodecType() {
    return CompressionUtil.CodecType.LZ4_FRAME;
  }

  @Override
  protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf input) {
    long length = input.writerIndex();
    int blocks = (int) ((length + BLOCK_SIZE - 1) / BLOCK_SIZE);
    long bound =
        PREFIX + HEADER + 4 + (long) blocks * (4 + COMPRESSOR.maxCompressedLength(BLOCK_SIZE));
    ArrowBuf out = allocator.buffer(bound);
    try {
      ByteBuffer src = input.nioBuffer(0, (int) length);
      ByteBuffer dst = out.nioBuffer(0, (int) bound);
      long at = PREFIX;
      out.setInt(at, MAGIC);
      out.setByte(at + 4, FLG);
      out.setByte(at + 5, BD);
      out.setLong(at + 6, length);
      out.setByte(at + 14, headerChecksum(dst, (int) at + 4));
      at += HEADER;
      for (long from = 0; from < length; from += BLOCK_SIZE) {
        int blockLength = (int) Math.min(BLOCK_SIZE, length - from);
        int written =
            COMPRESSOR.compress(
                src, (int) from, blockLength, dst, (int) at + 4, (int) (bound - at - 4));
        if (written >= blockLength) {
          out.setInt(at, blockLength | UNCOMPRESSED_BLOCK);
          out.setBytes(at + 4, input, from, blockLength);
          written = blockLength;
        } else {
          out.setInt(at, written);
        }
        at += 4 + written;
      }
      out.setInt(at, 0);
      out.writerIndex(at + 4);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  @Override
  protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf input) {
    long length = readUncompressedLength(input);
    long end = input.writerIndex();
    if (length < 0 || length > Integer.MAX_VALUE || end - PREFIX < HEADER + 4) {
      throw new IllegalArgumentException("invalid LZ4 frame: bad lengths");
    }
    ByteBuffer src = input.nioBuffer(0, (int) end);
    long at = PREFIX;
    byte flags = input.getByte(at + 4);
    if (input.getInt(at) != MAGIC || (flags & 0xC0) != 0x40) {
      throw new IllegalArgumentException("invalid LZ4 frame: bad magic or version");
    }
    if ((flags & 0x20) == 0 || (flags & 0x01) != 0) {
      throw new IllegalArgumentException("unsupported LZ4 frame: linked blocks or dictionary");
    }
    boolean blockChecksums = (flags & 0x10) != 0;
    boolean contentSize = (flags & 0x08) != 0;
    boolean contentChecksum = (flags & 0x04) != 0;
    int descriptor = 2 + (contentSize ? 8 : 0);
    if (contentSize && input.getLong(at + 6) != length) {
      throw new IllegalArgumentException("invalid LZ4 frame: content size disagrees");
    }
    if (input.getByte(at + 4 + descriptor) != headerChecksum(src, (int) at + 4, descriptor)) {
      throw new IllegalArgumentException("invalid LZ4 frame: header checksum");
    }
    at += 4 + descriptor + 1;
    ArrowBuf out = allocator.buffer(length);
    try {
      ByteBuffer dst = out.nioBuffer(0, (int) length);
      long produced = 0;
      while (true) {
        requireBytes(at, 4, end);
        int size = input.getInt(at);
        at += 4;
        if (size == 0) {
          break;
        }
        int blockLength = size & ~UNCOMPRESSED_BLOCK;
        requireBytes(at, blockLength + (blockChecksums ? 4L : 0L), end);
        if ((size & UNCOMPRESSED_BLOCK) != 0) {
          requireBytes(produced, blockLength, length);
          out.setBytes(produced, input, at, blockLength);
          produced += blockLength;
        } else {
          produced +=
              DECOMPRESSOR.decompress(
                  src, (int) at, blockLength, dst, (int) produced, (int) (length - produced));
        }
        at += blockLength + (blockChecksums ? 4 : 0);
      }
      if (produced != length || at + (contentChecksum ? 4 : 0) != end) {
        throw new IllegalArgumentException("invalid LZ4 frame: wrong decompressed length");
      }
      out.writerIndex(length);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  private static void requireBytes(long at, long count, long end) {
    if (count < 0 || at + count > end) {
      throw new IllegalArgumentException("invalid LZ4 frame: truncated");
    }
  }

  private static byte headerChecksum(ByteBuffer frame, int descriptorStart) {
    return headerChecksum(frame, descriptorStart, 10);
  }

  private static byte headerChecksum(ByteBuffer frame, int descriptorStart, int length) {
    return (byte) ((XXHASH.hash(frame, descriptorStart, length, 0) >> 8) & 0xFF);
  }
}
