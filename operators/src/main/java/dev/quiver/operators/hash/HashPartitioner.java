package dev.quiver.operators.hash;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.kernel.Take;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Splits a batch into one batch per output channel by the hash of its key columns: the producer
 * side of a Shuffle exchange.
 *
 * <pre>
 *   batch ──hash(keys)──► channelOf(hash, n) ──counting sort──► row indices grouped by channel
 *                                                                  │ Take per channel
 *                                              channel 0 batch ◄───┤
 *                                              channel k batch ◄───┘  (empty channels: none)
 * </pre>
 *
 * <p>A row's channel is {@link #channelOf channelOf}({@link VectorHasher} hash of its keys, n), so
 * rows with equal keys land in the same channel on every producer. Within a channel, rows keep
 * their input order. Every output batch is new memory from the given allocator, owned by the
 * caller; the partitioner never keeps a reference to its input or its outputs, only primitive
 * scratch arrays reused across batches. An instance is therefore not thread-safe.
 */
public final class HashPartitioner {
  private final int[] keyColumns;
  private final int channels;
  private final int[] channelStart; // channelStart[c] .. channelStart[c + 1]: rows of channel c
  private final int[] cursor;
  private long[] hashes = new long[0];
  private int[] rowsByChannel = new int[0];

  /** Receives one channel's batch and takes ownership of it (it must close it). */
  @FunctionalInterface
  public interface ChannelConsumer {
    void accept(int channel, VectorSchemaRoot batch);
  }

  /**
   * @param keyColumns indices of the key columns in the batches to split, in key order
   * @param channels the number of output channels, at least 1
   */
  public HashPartitioner(int[] keyColumns, int channels) {
    requireNonNull(keyColumns, "keyColumns is null");
    if (keyColumns.length == 0) {
      throw new IllegalArgumentException("hash partitioning needs at least one key column");
    }
    if (channels < 1) {
      throw new IllegalArgumentException("channels must be at least 1, got " + channels);
    }
    for (int column : keyColumns) {
      if (column < 0) {
        throw new IllegalArgumentException("key column index is negative: " + column);
      }
    }
    this.keyColumns = keyColumns.clone();
    this.channels = channels;
    this.channelStart = new int[channels + 1];
    this.cursor = new int[channels];
  }

  public int channels() {
    return channels;
  }

  /**
   * The channel in {@code [0, channels)} of a row with this hash. It scales the high 32 bits of the
   * hash to the channel count (a multiply instead of a modulo), so it stays uncorrelated with a
   * hash table's buckets, which use the low bits.
   */
  public static int channelOf(long hash, int channels) {
    return (int) (((hash >>> 32) * channels) >>> 32);
  }

  /**
   * Splits {@code batch} and returns one batch per channel, indexed by channel; a channel that got
   * no rows has {@code null} (no empty batches are made). The caller owns the returned batches.
   */
  public VectorSchemaRoot[] split(VectorSchemaRoot batch, BufferAllocator allocator) {
    VectorSchemaRoot[] result = new VectorSchemaRoot[channels];
    try {
      split(batch, allocator, (channel, out) -> result[channel] = out);
    } catch (RuntimeException | Error e) {
      for (VectorSchemaRoot out : result) {
        if (out != null) {
          out.close();
        }
      }
      throw e;
    }
    return result;
  }

  /**
   * Splits {@code batch} and hands each non-empty channel's batch to {@code consumer}, in channel
   * order. The consumer owns each batch from the moment it is called, even if it throws.
   */
  public void split(VectorSchemaRoot batch, BufferAllocator allocator, ChannelConsumer consumer) {
    requireNonNull(batch, "batch is null");
    requireNonNull(allocator, "allocator is null");
    requireNonNull(consumer, "consumer is null");
    int rows = batch.getRowCount();
    if (rows == 0) {
      return;
    }
    groupRowsByChannel(batch, rows);
    for (int channel = 0; channel < channels; channel++) {
      int from = channelStart[channel];
      int count = channelStart[channel + 1] - from;
      if (count > 0) {
        consumer.accept(channel, Take.take(batch, rowsByChannel, from, count, allocator));
      }
    }
  }

  /** A stable counting sort of the row numbers by channel into {@link #rowsByChannel}. */
  private void groupRowsByChannel(VectorSchemaRoot batch, int rows) {
    if (rowsByChannel.length < rows) {
      rowsByChannel = new int[Math.max(rows, rowsByChannel.length * 3 / 2)];
    }
    if (channels == 1) {
      // Everything goes to channel 0: no need to hash.
      checkKeyColumns(batch);
      for (int i = 0; i < rows; i++) {
        rowsByChannel[i] = i;
      }
      channelStart[0] = 0;
      channelStart[1] = rows;
      return;
    }
    hashes = VectorHasher.ensureCapacity(hashes, rows);
    VectorHasher.hash(batch, keyColumns, hashes);
    // cursor first counts the rows of each channel, then walks each channel's range while filling.
    Arrays.fill(cursor, 0);
    for (int i = 0; i < rows; i++) {
      cursor[channelOf(hashes[i], channels)]++;
    }
    int start = 0;
    for (int channel = 0; channel < channels; channel++) {
      int count = cursor[channel];
      channelStart[channel] = start;
      cursor[channel] = start;
      start += count;
    }
    channelStart[channels] = start;
    for (int i = 0; i < rows; i++) {
      rowsByChannel[cursor[channelOf(hashes[i], channels)]++] = i;
    }
  }

  private void checkKeyColumns(VectorSchemaRoot batch) {
    int columns = batch.getFieldVectors().size();
    for (int column : keyColumns) {
      if (column >= columns) {
        throw new IllegalArgumentException(
            "key column " + column + " is outside the batch's " + columns + " columns");
      }
    }
  }
}
