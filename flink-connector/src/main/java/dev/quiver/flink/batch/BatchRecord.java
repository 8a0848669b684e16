package dev.quiver.flink.batch;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One Flink record: an Arrow record batch plus the routing metadata a stage needs.
 *
 * <p>A record is either {@link Kind#DATA} (it carries a batch) or {@link Kind#END_OF_PARTITION} (a
 * marker without a batch that a producer sends once per consumer channel after its last data
 * record; Flink cannot tell a consumer which producer a record came from, so consumers that need to
 * know when each producer is done count these markers).
 *
 * <p>{@link #partition()} is the index of the producing task, {@link #channel()} the consumer
 * channel the producer chose for it ({@link #NO_CHANNEL} when the edge does not split).
 *
 * <p>Ownership: Flink never closes a record. Whoever receives a record owns its batch and closes it
 * (or transfers its buffers into its own allocator) before it returns; whoever emits a record
 * closes it right after {@code collect} returns — by then a chained consumer has taken its share
 * and a network edge has serialized it. Closing is idempotent, so both sides closing is safe.
 */
public final class BatchRecord implements AutoCloseable {
  /** The channel of a record whose edge does not split batches into channels. */
  public static final int NO_CHANNEL = -1;

  /** What a record carries. */
  public enum Kind {
    DATA,
    END_OF_PARTITION
  }

  private final Kind kind;
  private final int partition;
  private final int channel;
  private final VectorSchemaRoot batch;

  private BatchRecord(Kind kind, int partition, int channel, VectorSchemaRoot batch) {
    if (partition < 0) {
      throw new IllegalArgumentException("partition must be >= 0: " + partition);
    }
    if (channel < NO_CHANNEL) {
      throw new IllegalArgumentException("channel must be >= 0 or NO_CHANNEL: " + channel);
    }
    this.kind = kind;
    this.partition = partition;
    this.channel = channel;
    this.batch = batch;
  }

  /** A data record that takes ownership of {@code batch}. */
  public static BatchRecord data(int partition, int channel, VectorSchemaRoot batch) {
    return new BatchRecord(Kind.DATA, partition, channel, requireNonNull(batch, "batch is null"));
  }

  /** A data record for an edge that does not split into channels. */
  public static BatchRecord data(int partition, VectorSchemaRoot batch) {
    return data(partition, NO_CHANNEL, batch);
  }

  /** The marker a producer sends after its last data record for {@code channel}. */
  public static BatchRecord endOfPartition(int partition, int channel) {
    return new BatchRecord(Kind.END_OF_PARTITION, partition, channel, null);
  }

  public Kind kind() {
    return kind;
  }

  public boolean isData() {
    return kind == Kind.DATA;
  }

  public boolean isEndOfPartition() {
    return kind == Kind.END_OF_PARTITION;
  }

  public int partition() {
    return partition;
  }

  public int channel() {
    return channel;
  }

  /** The batch of a data record. */
  public VectorSchemaRoot batch() {
    if (batch == null) {
      throw new IllegalStateException("an end-of-partition marker carries no batch");
    }
    return batch;
  }

  /** Rows in the batch; 0 for a marker. */
  public int rowCount() {
    return batch == null ? 0 : batch.getRowCount();
  }

  /** Releases the batch's buffers. Idempotent. */
  @Override
  public void close() {
    if (batch != null) {
      batch.close();
    }
  }

  @Override
  public String toString() {
    return kind == Kind.DATA
        ? "BatchRecord[partition="
            + partition
            + ", channel="
            + channel
            + ", rows="
            + rowCount()
            + "]"
        : "BatchRecord[END_OF_PARTITION partition=" + partition + ", channel=" + channel + "]";
  }
}
