package dev.quiver.formats;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.flatbuf.Block;
import org.apache.arrow.flatbuf.Footer;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;

/**
 * Counts the rows of an Arrow IPC file from metadata alone: the footer lists the record batches,
 * and each batch's message header (a few hundred bytes, read without its body) holds its length.
 */
final class IpcFooter {
  private static final byte[] MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);
  private static final int CONTINUATION = 0xFFFFFFFF;

  private IpcFooter() {}

  /** The number of rows in the Arrow IPC file at {@code path}. */
  static long rows(String path) {
    try (FileChannel channel = FileChannel.open(Paths.get(path), StandardOpenOption.READ)) {
      long size = channel.size();
      if (size < MAGIC.length * 2 + 4) {
        throw invalid(path, "the file is " + size + " bytes, too small for an Arrow IPC file");
      }
      ByteBuffer tail = read(channel, size - MAGIC.length - 4, MAGIC.length + 4);
      if (!magic(tail, 4) || !magic(read(channel, 0, MAGIC.length), 0)) {
        throw invalid(path, "the Arrow file magic bytes are missing (truncated, or not Arrow IPC)");
      }
      int footerLength = tail.getInt(0);
      if (footerLength <= 0 || footerLength > size - MAGIC.length * 2 - 4) {
        throw invalid(path, "the footer length " + footerLength + " does not fit the file");
      }
      Footer footer =
          Footer.getRootAsFooter(
              read(channel, size - MAGIC.length - 4 - footerLength, footerLength));
      long rows = 0;
      Block block = new Block();
      for (int i = 0; i < footer.recordBatchesLength(); i++) {
        footer.recordBatches(block, i);
        rows += batchLength(channel, block, path);
      }
      return rows;
    } catch (NoSuchFileException e) {
      throw new QuiverException(ErrorCode.FILE_NOT_FOUND, "File " + path + " does not exist", e);
    } catch (IOException | RuntimeException e) {
      if (e instanceof QuiverException quiver) {
        throw quiver;
      }
      throw invalid(path, "its footer cannot be decoded (" + e + ")");
    }
  }

  private static long batchLength(FileChannel channel, Block block, String path)
      throws IOException {
    ByteBuffer metadata = read(channel, block.offset(), block.metaDataLength());
    int prefix = metadata.getInt(0) == CONTINUATION ? 8 : 4; // pre-0.15 files have no marker
    metadata.position(prefix);
    Message message = Message.getRootAsMessage(metadata.slice().order(ByteOrder.LITTLE_ENDIAN));
    if (message.headerType() != MessageHeader.RecordBatch) {
      throw invalid(path, "block at offset " + block.offset() + " is not a record batch");
    }
    RecordBatch batch = (RecordBatch) message.header(new RecordBatch());
    return batch.length();
  }

  private static ByteBuffer read(FileChannel channel, long position, int length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        throw new IOException("unexpected end of file at " + (position + buffer.position()));
      }
    }
    return buffer.flip();
  }

  private static boolean magic(ByteBuffer buffer, int offset) {
    for (int i = 0; i < MAGIC.length; i++) {
      if (buffer.get(offset + i) != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  private static QuiverException invalid(String path, String reason) {
    return new QuiverException(
        ErrorCode.INVALID_FILE, "Cannot read Arrow IPC file " + path + ": " + reason);
  }
}
