package dev.quiver.flink.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BufferLayout;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ValueVectorUtility;

/**
 * The structural checks that make decoding a batch of an edge's schema safe on corrupt bytes: the
 * IPC metadata must fit the schema (node and buffer counts, row counts, buffers inside the body),
 * every decompressed buffer must be large enough for its rows, and the loaded vectors' offsets must
 * stay inside their data. Values are not inspected: a wrong value is a producer's bug, not a crash.
 */
final class BatchChecks {
  // Batches hold thousands of rows; a bound keeps a corrupt count from allocating gigabytes.
  private static final long MAX_ROWS = 1L << 24;

  private final Schema schema;
  private final String edge;
  private final int expectedNodes;
  private final int expectedBuffers;
  private final boolean[] topLevel;

  BatchChecks(Schema schema, String edge) {
    this.schema = schema;
    this.edge = edge;
    List<Boolean> nodes = new ArrayList<>();
    this.expectedBuffers = countLayout(schema.getFields(), true, nodes);
    this.expectedNodes = nodes.size();
    this.topLevel = new boolean[expectedNodes];
    for (int i = 0; i < expectedNodes; i++) {
      topLevel[i] = nodes.get(i);
    }
  }

  /** Appends whether each field node (depth first) is top-level; returns the buffer count. */
  private static int countLayout(List<Field> fields, boolean top, List<Boolean> nodes) {
    int buffers = 0;
    for (Field field : fields) {
      nodes.add(top);
      buffers += TypeLayout.getTypeBufferCount(field.getType());
      buffers += countLayout(field.getChildren(), false, nodes);
    }
    return buffers;
  }

  void checkLayout(RecordBatch header, long bodyLength) throws CorruptBatchException {
    if (header.length() < 0 || header.length() > MAX_ROWS) {
      throw new CorruptBatchException(edge, "invalid row count " + header.length());
    }
    if (header.nodesLength() != expectedNodes || header.buffersLength() != expectedBuffers) {
      throw new CorruptBatchException(
          edge,
          header.nodesLength()
              + " field nodes and "
              + header.buffersLength()
              + " buffers do not fit the edge schema ("
              + expectedNodes
              + " and "
              + expectedBuffers
              + ")");
    }
    for (int i = 0; i < header.nodesLength(); i++) {
      long length = header.nodes(i).length();
      long nulls = header.nodes(i).nullCount();
      // Every top-level column has the batch's row count; nested children bound their own.
      boolean badLength = topLevel[i] ? length != header.length() : length < 0 || length > MAX_ROWS;
      if (badLength || nulls < 0 || nulls > length) {
        throw new CorruptBatchException(edge, "invalid field node " + i);
      }
    }
    for (int i = 0; i < header.buffersLength(); i++) {
      long offset = header.buffers(i).offset();
      long length = header.buffers(i).length();
      if (offset < 0 || length < 0 || offset > bodyLength - length) {
        throw new CorruptBatchException(
            edge, "buffer " + i + " [" + offset + ", +" + length + ") outside the body");
      }
    }
  }

  /**
   * Every (decompressed) buffer is large enough for its field node's row count: Arrow's loader
   * copies validity bits before checking sizes and leaks a buffer when that copy fails.
   */
  void checkBufferSizes(ArrowRecordBatch batch) {
    int[] next = new int[2]; // node index, buffer index
    for (Field field : schema.getFields()) {
      checkBufferSizes(field, batch, next);
    }
  }

  private void checkBufferSizes(Field field, ArrowRecordBatch batch, int[] next) {
    ArrowFieldNode node = batch.getNodes().get(next[0]++);
    long rows = node.getLength();
    List<BufferLayout> layouts = TypeLayout.getTypeLayout(field.getType()).getBufferLayouts();
    boolean variableWidth =
        layouts.stream().anyMatch(layout -> layout.getType() == BufferLayout.BufferType.OFFSET);
    for (BufferLayout layout : layouts) {
      ArrowBuf buffer = batch.getBuffers().get(next[1]++);
      long needed;
      switch (layout.getType()) {
        case VALIDITY:
          boolean ignored = node.getNullCount() == 0 || node.getNullCount() == rows;
          needed = ignored ? 0 : (rows + 7) / 8;
          break;
        case OFFSET:
          needed = rows == 0 ? 0 : (rows + 1) * layout.getTypeBitWidth() / 8;
          break;
        case DATA:
          needed = variableWidth ? 0 : (rows * layout.getTypeBitWidth() + 7) / 8;
          break;
        default:
          needed = 0;
      }
      if (buffer.writerIndex() < needed) {
        throw new IllegalArgumentException(
            layout.getType()
                + " buffer of "
                + field.getName()
                + " has "
                + buffer.writerIndex()
                + " bytes, "
                + needed
                + " needed for "
                + rows
                + " rows");
      }
    }
    for (Field child : field.getChildren()) {
      checkBufferSizes(child, batch, next);
    }
  }

  /**
   * Structural checks that keep unchecked vector access in bounds: buffer sizes for the row count
   * (Arrow's cheap validation) and monotonic offsets within the data of variable-width vectors.
   * Values themselves are not inspected: a wrong value is the producer's bug, not a crash.
   */
  static void checkLoaded(VectorSchemaRoot root) {
    ValueVectorUtility.validate(root);
    for (FieldVector vector : root.getFieldVectors()) {
      if (vector instanceof BaseVariableWidthVector) {
        checkOffsets((BaseVariableWidthVector) vector);
      }
    }
  }

  private static void checkOffsets(BaseVariableWidthVector vector) {
    int count = vector.getValueCount();
    if (count == 0) {
      return;
    }
    ArrowBuf offsets = vector.getOffsetBuffer();
    long dataCapacity = vector.getDataBuffer().capacity();
    int previous = offsets.getInt(0);
    if (previous < 0) {
      throw new IllegalArgumentException("negative first offset in " + vector.getName());
    }
    for (int i = 1; i <= count; i++) {
      int next = offsets.getInt((long) i * BaseVariableWidthVector.OFFSET_WIDTH);
      if (next < previous) {
        throw new IllegalArgumentException("decreasing offsets in " + vector.getName());
      }
      previous = next;
    }
    if (previous > dataCapacity) {
      throw new IllegalArgumentException("offsets beyond the data of " + vector.getName());
    }
  }
}
