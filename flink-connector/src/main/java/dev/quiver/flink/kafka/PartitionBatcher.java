package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The batch under construction for one Kafka partition: values are decoded into its vectors as they
 * arrive, and the batch is taken when it is full ({@code maxRows}) or its first row is {@code
 * maxDelay} old, whichever comes first.
 *
 * <p>It remembers the offset of its first row: a checkpoint taken while rows wait here must make a
 * restored reader read them again (see {@link KafkaBatchReader#snapshotState}). A message without a
 * value (a tombstone) is skipped. The batch's columns are the value's declared columns, then one
 * per {@code metadata} (the record's partition, offset, ...), filled from each record. A value that
 * does not fit the schema fails with {@link ErrorCode#MALFORMED_ROW}, naming topic, partition,
 * offset and column.
 */
final class PartitionBatcher implements AutoCloseable {
  private final String topic;
  private final int partition;
  private final Schema schema;
  private final ValueDecoder decoder;
  private final List<KafkaMetadata> metadata;
  private final BufferAllocator allocator;
  private final int maxRows;
  private final long maxDelayNanos;
  private VectorSchemaRoot batch;
  private int rows;
  private long firstNanos;
  private long firstOffset = -1;

  PartitionBatcher(
      String topic,
      int partition,
      Schema schema,
      ValueDecoder decoder,
      List<KafkaMetadata> metadata,
      BufferAllocator allocator,
      int maxRows,
      long maxDelayNanos) {
    this.topic = requireNonNull(topic, "topic is null");
    this.partition = partition;
    this.schema = requireNonNull(schema, "schema is null");
    this.decoder = requireNonNull(decoder, "decoder is null");
    this.metadata = List.copyOf(requireNonNull(metadata, "metadata is null"));
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.maxRows = maxRows;
    this.maxDelayNanos = maxDelayNanos;
  }

  /** Decodes {@code record} into the batch; true if the batch is now full. */
  boolean append(ConsumerRecord<byte[], byte[]> record, long nowNanos) {
    byte[] value = record.value();
    if (value == null) {
      return false;
    }
    if (batch == null) {
      batch = VectorSchemaRoot.create(schema, allocator);
      for (FieldVector vector : batch.getFieldVectors()) {
        vector.setInitialCapacity(maxRows);
      }
      batch.allocateNew();
      decoder.bind(batch);
      firstNanos = nowNanos;
      firstOffset = record.offset();
    }
    try {
      decoder.decode(value, rows);
    } catch (BadValue bad) {
      throw malformed(record, value, bad);
    }
    int first = schema.getFields().size() - metadata.size();
    for (int m = 0; m < metadata.size(); m++) {
      metadata.get(m).write(record, batch.getVector(first + m), rows);
    }
    rows++;
    return rows >= maxRows;
  }

  private QuiverException malformed(
      ConsumerRecord<byte[], byte[]> record, byte[] value, BadValue bad) {
    String where =
        bad.column() < 0
            ? ""
            : ", column '"
                + decoder.names[bad.column()]
                + "' ("
                + decoder.kinds[bad.column()]
                + ")";
    String text = new String(value, 0, Math.min(value.length, 200), StandardCharsets.UTF_8);
    return new QuiverException(
        ErrorCode.MALFORMED_ROW,
        "Malformed value in Kafka topic '"
            + topic
            + "' partition "
            + partition
            + " offset "
            + record.offset()
            + where
            + ": "
            + bad.getMessage()
            + " (value: "
            + text.replace('\n', ' ')
            + (value.length > 200 ? "..." : "")
            + ")");
  }

  /** Rows waiting. */
  int rows() {
    return rows;
  }

  /** The offset of the first waiting row; only when {@link #rows()} is positive. */
  long firstOffset() {
    return firstOffset;
  }

  /** When the waiting rows must be emitted ({@code System.nanoTime()}); only with rows. */
  long deadlineNanos() {
    return firstNanos + maxDelayNanos;
  }

  /** The waiting rows as a batch the caller owns, or null if there are none. */
  VectorSchemaRoot take() {
    if (rows == 0) {
      return null;
    }
    VectorSchemaRoot full = batch;
    full.setRowCount(rows);
    batch = null;
    rows = 0;
    firstOffset = -1;
    return full;
  }

  /** Drops the waiting rows (a restored reader reads them again from the checkpointed offset). */
  @Override
  public void close() {
    if (batch != null) {
      batch.close();
      batch = null;
      rows = 0;
    }
  }
}
