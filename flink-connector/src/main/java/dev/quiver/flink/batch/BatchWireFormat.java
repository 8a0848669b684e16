package dev.quiver.flink.batch;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.message.ArrowBuffer;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.core.memory.MemorySegmentWritable;

/**
 * The bytes of one {@link BatchRecord} on an edge.
 *
 * <pre>
 * byte   kind            0 = data, 1 = end of partition
 * int    partition       producing task
 * int    channel         consumer channel, -1 = none
 * -- data records only --
 * int    metadataLength
 * bytes  metadata        Arrow IPC Message flatbuffer with a RecordBatch header
 * long   bodyLength
 * bytes  body            Arrow IPC record-batch body (8-byte aligned buffers, maybe compressed)
 * </pre>
 *
 * The schema is not written: both ends know it from the edge's type information. Reading checks
 * every length and offset against the edge's schema before Arrow touches the buffers ({@link
 * BatchChecks}), so corrupt bytes end in a {@link CorruptBatchException} instead of a JVM crash
 * (vector accessors may run without bounds checks).
 */
final class BatchWireFormat {
  private static final byte DATA = 0;
  private static final byte END_OF_PARTITION = 1;
  private static final int MAX_METADATA_BYTES = 64 << 20;
  private static final int SCRATCH_BYTES = 64 << 10;
  private static final byte[] PADDING = new byte[8];

  private final Schema schema;
  private final String edge;
  private final CompressionCodec codec;
  private final BatchChecks checks;
  private final byte[] scratch = new byte[SCRATCH_BYTES];

  BatchWireFormat(Schema schema, BatchCompression compression, String edge) {
    this.schema = schema;
    this.edge = edge;
    this.codec = compression.newCodec();
    this.checks = new BatchChecks(schema, edge);
  }

  void write(BatchRecord record, DataOutputView out) throws IOException {
    out.writeByte(record.isData() ? DATA : END_OF_PARTITION);
    out.writeInt(record.partition());
    out.writeInt(record.channel());
    if (!record.isData()) {
      return;
    }
    VectorSchemaRoot root = record.batch();
    if (!root.getSchema().equals(schema)) {
      throw new IllegalStateException(
          "batch schema " + root.getSchema() + " does not match edge '" + edge + "' " + schema);
    }
    try (ArrowRecordBatch batch = new VectorUnloader(root, true, codec, true).getRecordBatch()) {
      ByteBuffer metadata = MessageSerializer.serializeMetadata(batch, IpcOption.DEFAULT);
      long bodyLength = batch.computeBodyLength();
      out.writeInt(metadata.remaining());
      out.write(
          metadata.array(), metadata.arrayOffset() + metadata.position(), metadata.remaining());
      out.writeLong(bodyLength);
      List<ArrowBuf> buffers = batch.getBuffers();
      List<ArrowBuffer> layout = batch.getBuffersLayout();
      long position = 0;
      for (int i = 0; i < buffers.size(); i++) {
        long offset = layout.get(i).getOffset();
        pad(out, offset - position);
        long size = layout.get(i).getSize();
        writeBuffer(buffers.get(i), size, out);
        position = offset + size;
      }
      pad(out, bodyLength - position);
    }
  }

  private void writeBuffer(ArrowBuf buffer, long size, DataOutputView out) throws IOException {
    if (size == 0) {
      return;
    }
    if (out instanceof MemorySegmentWritable) {
      // One copy, straight from Arrow's off-heap memory into Flink's output buffer.
      ((MemorySegmentWritable) out)
          .write(
              MemorySegmentFactory.wrapOffHeapMemory(buffer.nioBuffer(0, (int) size)),
              0,
              (int) size);
      return;
    }
    for (long done = 0; done < size; ) {
      int n = (int) Math.min(scratch.length, size - done);
      buffer.getBytes(done, scratch, 0, n);
      out.write(scratch, 0, n);
      done += n;
    }
  }

  private static void pad(DataOutputView out, long bytes) throws IOException {
    if (bytes < 0 || bytes >= PADDING.length) {
      throw new IllegalStateException("unexpected Arrow buffer alignment gap: " + bytes);
    }
    out.write(PADDING, 0, (int) bytes);
  }

  BatchRecord read(DataInputView in, BufferAllocator allocator) throws IOException {
    try {
      return readRecord(in, allocator);
    } catch (EOFException e) {
      throw new CorruptBatchException(edge, "truncated input", e);
    } catch (RuntimeException e) {
      throw new CorruptBatchException(edge, e.toString(), e);
    }
  }

  private BatchRecord readRecord(DataInputView in, BufferAllocator allocator) throws IOException {
    byte kind = in.readByte();
    int partition = in.readInt();
    int channel = in.readInt();
    if (kind != DATA && kind != END_OF_PARTITION) {
      throw new CorruptBatchException(edge, "unknown record kind " + kind);
    }
    if (partition < 0 || channel < BatchRecord.NO_CHANNEL) {
      throw new CorruptBatchException(
          edge, "invalid routing partition=" + partition + " channel=" + channel);
    }
    if (kind == END_OF_PARTITION) {
      return BatchRecord.endOfPartition(partition, channel);
    }
    int metadataLength = in.readInt();
    if (metadataLength <= 0 || metadataLength > MAX_METADATA_BYTES) {
      throw new CorruptBatchException(edge, "invalid metadata length " + metadataLength);
    }
    byte[] metadata = new byte[metadataLength];
    in.readFully(metadata);
    long bodyLength = in.readLong();
    RecordBatch header = parseHeader(metadata, bodyLength);
    ArrowRecordBatch batch;
    ArrowBuf body = allocator.buffer(bodyLength);
    try {
      readBody(in, body, bodyLength);
      // Takes the slices it needs and releases our reference to the body.
      batch = MessageSerializer.deserializeRecordBatch(header, body);
    } catch (RuntimeException e) {
      body.close();
      throw new CorruptBatchException(edge, "undecodable record batch", e);
    } catch (IOException e) {
      body.close();
      throw e;
    }
    try (ArrowRecordBatch plain = decompress(batch, allocator)) {
      VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
      try {
        checks.checkBufferSizes(plain);
        new VectorLoader(root).load(plain);
        BatchChecks.checkLoaded(root);
      } catch (RuntimeException e) {
        root.close();
        throw new CorruptBatchException(edge, "invalid vectors: " + e.getMessage(), e);
      }
      return BatchRecord.data(partition, channel, root);
    }
  }

  /**
   * The batch with every buffer decompressed (closing {@code batch}). Done here rather than in
   * Arrow's loader so that a buffer that fails to decompress releases everything decoded so far.
   */
  private ArrowRecordBatch decompress(ArrowRecordBatch batch, BufferAllocator allocator)
      throws CorruptBatchException {
    CompressionUtil.CodecType type;
    try {
      type = CompressionUtil.CodecType.fromCompressionType(batch.getBodyCompression().getCodec());
    } catch (RuntimeException e) {
      batch.close();
      throw new CorruptBatchException(edge, "unknown compression codec", e);
    }
    if (type == CompressionUtil.CodecType.NO_COMPRESSION) {
      return batch;
    }
    List<ArrowBuf> plain = new ArrayList<>(batch.getBuffers().size());
    try (batch) {
      CompressionCodec decoder = BatchCompression.of(type).newCodec();
      for (ArrowBuf buffer : batch.getBuffers()) {
        // decompress() consumes one reference of its input (or slices it); take one for it.
        buffer.getReferenceManager().retain();
        if (buffer.writerIndex() == 0) {
          plain.add(buffer);
          continue;
        }
        try {
          plain.add(decoder.decompress(allocator, buffer));
        } catch (RuntimeException | OutOfMemoryError e) {
          buffer.close();
          throw e;
        }
      }
      return new ArrowRecordBatch(
          batch.getLength(), batch.getNodes(), plain, NoCompressionCodec.DEFAULT_BODY_COMPRESSION);
    } catch (RuntimeException | OutOfMemoryError e) {
      throw new CorruptBatchException(edge, "undecompressable buffer: " + e.getMessage(), e);
    } finally {
      plain.forEach(ArrowBuf::close); // the new batch holds its own references
    }
  }

  private RecordBatch parseHeader(byte[] metadata, long bodyLength) throws CorruptBatchException {
    if (bodyLength < 0 || bodyLength > Integer.MAX_VALUE) {
      throw new CorruptBatchException(edge, "invalid body length " + bodyLength);
    }
    try {
      Message message = Message.getRootAsMessage(ByteBuffer.wrap(metadata));
      if (message.headerType() != MessageHeader.RecordBatch) {
        throw new CorruptBatchException(edge, "message is not a record batch");
      }
      if (message.bodyLength() != bodyLength) {
        throw new CorruptBatchException(
            edge, "body length " + bodyLength + " disagrees with metadata " + message.bodyLength());
      }
      RecordBatch header = (RecordBatch) message.header(new RecordBatch());
      checks.checkLayout(header, bodyLength);
      return header;
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new CorruptBatchException(edge, "unreadable metadata", e);
    }
  }

  private void readBody(DataInputView in, ArrowBuf body, long bodyLength) throws IOException {
    for (long done = 0; done < bodyLength; ) {
      int n = (int) Math.min(scratch.length, bodyLength - done);
      in.readFully(scratch, 0, n);
      body.setBytes(done, scratch, 0, n);
      done += n;
    }
  }

  /** Copies one serialized record without decoding it. */
  void copy(DataInputView in, DataOutputView out) throws IOException {
    byte kind = in.readByte();
    out.writeByte(kind);
    out.writeInt(in.readInt());
    out.writeInt(in.readInt());
    if (kind != DATA) {
      return;
    }
    int metadataLength = in.readInt();
    if (metadataLength <= 0 || metadataLength > MAX_METADATA_BYTES) {
      throw new CorruptBatchException(edge, "invalid metadata length " + metadataLength);
    }
    out.writeInt(metadataLength);
    copyBytes(in, out, metadataLength);
    long bodyLength = in.readLong();
    if (bodyLength < 0 || bodyLength > Integer.MAX_VALUE) {
      throw new CorruptBatchException(edge, "invalid body length " + bodyLength);
    }
    out.writeLong(bodyLength);
    copyBytes(in, out, bodyLength);
  }

  private void copyBytes(DataInputView in, DataOutputView out, long bytes) throws IOException {
    for (long done = 0; done < bytes; ) {
      int n = (int) Math.min(scratch.length, bytes - done);
      in.readFully(scratch, 0, n);
      out.write(scratch, 0, n);
      done += n;
    }
  }
}
