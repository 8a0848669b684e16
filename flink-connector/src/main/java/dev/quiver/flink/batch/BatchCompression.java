package dev.quiver.flink.batch;

import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * Body compression of batches on an edge, chosen per job. The IPC message of each batch records the
 * codec it was written with, so a reader decodes any of them.
 */
public enum BatchCompression {
  NONE(CompressionUtil.CodecType.NO_COMPRESSION),
  LZ4(CompressionUtil.CodecType.LZ4_FRAME),
  ZSTD(CompressionUtil.CodecType.ZSTD);

  private final CompressionUtil.CodecType codecType;

  BatchCompression(CompressionUtil.CodecType codecType) {
    this.codecType = codecType;
  }

  /** A new codec; codecs may hold native state, so each serializer instance makes its own. */
  CompressionCodec newCodec() {
    switch (this) {
      case LZ4:
        return new Lz4FrameCodec();
      case ZSTD:
        return CommonsCompressionFactory.INSTANCE.createCodec(codecType);
      default:
        return NoCompressionCodec.INSTANCE;
    }
  }

  /** The compression a batch's IPC metadata names. */
  static BatchCompression of(CompressionUtil.CodecType type) {
    for (BatchCompression value : values()) {
      if (value.codecType == type) {
        return value;
      }
    }
    throw new IllegalArgumentException("unsupported body compression " + type);
  }

  /** Parses {@code none|lz4|zstd}, case-insensitively. */
  public static BatchCompression parse(String name) {
    for (BatchCompression value : values()) {
      if (value.name().equalsIgnoreCase(name.trim())) {
        return value;
      }
    }
    throw new IllegalArgumentException(
        "unknown batch compression '" + name + "': expected none, lz4 or zstd");
  }
}
