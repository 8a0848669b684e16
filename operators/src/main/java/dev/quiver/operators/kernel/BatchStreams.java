package dev.quiver.operators.kernel;

import dev.quiver.operators.StateStreams;
import dev.quiver.operators.memory.BatchTransfer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Batches inside an operator's snapshot (the event-time window operators'): an int32 length, then
 * an Arrow IPC stream of one schema (the schema message, the record batches, the end of stream).
 *
 * <pre>
 *   ... header ... │ length │ schema │ batch │ batch │ ... │ end │ length │ schema │ ... │ end │
 *                  └──────── one stream per input ─────────────┘
 * </pre>
 *
 * Written with Arrow's IPC classes: the {@code state} module's BatchBytes is out of reach (that
 * module depends on this one). The reader moves each batch into the operator's allocator.
 *
 * <p>The stream forms ({@link #write(OutputStream, Schema, Consumer)}, {@link #read(InputStream,
 * Schema, BufferAllocator, Consumer, Names)}) have no length: the IPC stream's end-of-stream marker
 * ends it, so a snapshot is written batch by batch as it is made, never assembled first. Arrow's
 * channel over an {@code OutputStream} hands it at most 8 KiB per write.
 */
public final class BatchStreams {
  private BatchStreams() {}

  /**
   * Appends to {@code out} a stream of {@code schema} holding every batch {@code batches} passes to
   * the consumer it is given (each valid during that call), behind its int32 length: the form of
   * the version 1 window join and per-window states (their restores still read it; tests write it).
   */
  public static void write(
      ByteArrayOutputStream out, Schema schema, Consumer<Consumer<VectorSchemaRoot>> batches) {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    WriteChannel channel = new WriteChannel(Channels.newChannel(stream));
    try {
      MessageSerializer.serialize(channel, schema);
      batches.accept(batch -> append(channel, batch));
      ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    out.write(ByteBuffer.allocate(Integer.BYTES).putInt(stream.size()).array(), 0, Integer.BYTES);
    out.writeBytes(stream.toByteArray());
  }

  /**
   * Writes to {@code out} a stream of {@code schema}, without a length, holding every batch {@code
   * batches} passes to the consumer it is given (each valid during that call), as each comes.
   *
   * @throws IOException if {@code out} fails
   */
  public static void write(
      OutputStream out, Schema schema, Consumer<Consumer<VectorSchemaRoot>> batches)
      throws IOException {
    WriteChannel channel = new WriteChannel(Channels.newChannel(StateStreams.unclosable(out)));
    MessageSerializer.serialize(channel, schema);
    try {
      batches.accept(batch -> append(channel, batch));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
  }

  /**
   * Reads a stream {@link #write(OutputStream, Schema, Consumer)} wrote from {@code in}, up to its
   * end-of-stream marker and no further: passes each batch, in {@code allocator}, to {@code
   * batches}, which takes ownership of it.
   *
   * @throws IllegalArgumentException if the stream is truncated, corrupt or not of {@code schema}'s
   *     types, worded with {@code names}
   */
  public static void read(
      InputStream in,
      Schema schema,
      BufferAllocator allocator,
      Consumer<VectorSchemaRoot> batches,
      Names names) {
    readRoots(
        in, schema, allocator, root -> batches.accept(BatchTransfer.move(root, allocator)), names);
  }

  /**
   * As {@link #read(InputStream, Schema, BufferAllocator, Consumer, Names)}, but passes the
   * reader's own root, valid during the call only (the consumer copies what it keeps).
   */
  public static void readRoots(
      InputStream in,
      Schema schema,
      BufferAllocator allocator,
      Consumer<VectorSchemaRoot> batches,
      Names names) {
    try (ArrowStreamReader reader = new ArrowStreamReader(StateStreams.unclosable(in), allocator)) {
      VectorSchemaRoot root;
      try {
        root = reader.getVectorSchemaRoot();
      } catch (RuntimeException e) { // Arrow's reader fails so on a truncated stream
        throw new IOException(e.toString(), e);
      }
      checkTypes(root, schema, names);
      while (loadNext(reader)) {
        batches.accept(root);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(names.state() + " is corrupt or truncated: " + e, e);
    }
  }

  private static boolean loadNext(ArrowStreamReader reader) throws IOException {
    try {
      return reader.loadNextBatch();
    } catch (RuntimeException e) { // Arrow's reader fails so on a truncated stream
      throw new IOException(e.toString(), e);
    }
  }

  private static void checkTypes(VectorSchemaRoot root, Schema schema, Names names) {
    if (!BatchTransfer.sameTypes(root, schema)) {
      throw new IllegalArgumentException(
          names.state()
              + " of "
              + names.rows()
              + " "
              + root.getSchema()
              + " cannot restore "
              + names.restores()
              + " "
              + schema);
    }
  }

  private static void append(WriteChannel channel, VectorSchemaRoot batch) {
    try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
      MessageSerializer.serialize(channel, record);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How errors name a stream: "a window join state", "build rows", "a join of build rows". */
  public record Names(String state, String rows, String restores) {}

  /**
   * Reads the stream at {@code in}'s position (of the array {@code in} wraps) and moves past it:
   * passes each batch, in {@code allocator}, to {@code batches}, which takes ownership of it.
   *
   * @throws IllegalArgumentException if the stream is truncated, corrupt or not of {@code schema}'s
   *     types, worded with {@code names}
   */
  public static void read(
      ByteBuffer in,
      Schema schema,
      BufferAllocator allocator,
      Consumer<VectorSchemaRoot> batches,
      Names names) {
    if (in.remaining() < Integer.BYTES) {
      throw new IllegalArgumentException(
          names.state() + " is truncated before its " + names.rows());
    }
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException(names.state() + " is truncated in its " + names.rows());
    }
    ByteArrayInputStream stream =
        new ByteArrayInputStream(in.array(), in.arrayOffset() + in.position(), length);
    in.position(in.position() + length);
    try (ArrowStreamReader reader = new ArrowStreamReader(stream, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      checkTypes(root, schema, names);
      while (reader.loadNextBatch()) {
        batches.accept(BatchTransfer.move(root, allocator));
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(names.state() + " is corrupt: " + e, e);
    }
  }
}
