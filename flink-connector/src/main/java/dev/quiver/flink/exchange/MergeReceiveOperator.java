package dev.quiver.flink.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.sort.KWayMerge;
import dev.quiver.plan.sort.SortKey;
import java.util.BitSet;
import java.util.List;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The consumer side of a Merge input: one task merges the sorted outputs of all producers into one
 * sorted stream.
 *
 * <pre>
 *  producer 0 ─(0, sorted batches…, END)─┐
 *  producer 1 ─(1, sorted batches…, END)─┼─ global() ─► k-way merge by producer tag ─► sorted
 *  producer n ─(n, sorted batches…, END)─┘
 * </pre>
 *
 * Flink interleaves the producers' records arbitrarily and does not say who sent one, so every
 * batch carries its producer's partition and each producer ends with a marker; a row is emitted
 * only when every unfinished producer has a buffered row (see {@link KWayMerge}).
 */
public final class MergeReceiveOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final BatchTypeInfo type;
  private final int producers;
  private final List<SortKey> keys;
  private transient KWayMerge merge;
  private transient BitSet finished;

  public MergeReceiveOperator(BatchTypeInfo type, int producers, List<SortKey> keys) {
    this.type = requireNonNull(type, "type is null");
    if (producers <= 0) {
      throw new IllegalArgumentException("producers must be positive: " + producers);
    }
    this.producers = producers;
    this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
  }

  @Override
  public void open() throws Exception {
    super.open();
    OperatorContext context =
        new OperatorContext(
            allocator(), MemoryBudget.unlimited(taskName()), OperatorContext.DEFAULT_BATCH_ROWS);
    merge =
        new KWayMerge(
            context,
            type.schema(),
            keys,
            producers,
            batch -> emit(BatchRecord.data(partition(), batch)));
    finished = new BitSet(producers);
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    BatchRecord record = element.getValue();
    int producer = record.partition();
    if (producer >= producers || finished.get(producer)) {
      record.close();
      throw new IllegalStateException(
          taskName() + ": unexpected record from producer " + producer + ": " + record);
    }
    if (record.isEndOfPartition()) {
      finished.set(producer);
      merge.finish(producer);
    } else {
      merge.add(producer, record.batch()); // the merge takes the batch
    }
  }

  @Override
  public void endInput() {
    if (finished.cardinality() != producers) {
      throw new IllegalStateException(
          taskName() + ": input ended but only producers " + finished + " sent their end marker");
    }
  }

  @Override
  public void close() throws Exception {
    if (merge != null) {
      merge.close();
    }
    super.close();
  }
}
