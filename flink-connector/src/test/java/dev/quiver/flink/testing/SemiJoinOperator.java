package dev.quiver.flink.testing;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BuildProbeOperator;
import dev.quiver.operators.kernel.Take;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.vector.BigIntVector;

/**
 * Keeps the probe rows whose key (column 1) occurs on the build side. A naive Java set stands in
 * for a hash table: the point is the input order, which {@link BuildProbeOperator} enforces.
 */
public final class SemiJoinOperator extends BuildProbeOperator {
  private static final long serialVersionUID = 1L;
  private static final int KEY = 1;

  private transient Set<Long> buildKeys;
  private transient boolean probing;

  @Override
  public void open() throws Exception {
    super.open();
    buildKeys = new HashSet<>();
  }

  @Override
  protected void build(BatchRecord record) {
    try (record) {
      BigIntVector keys = (BigIntVector) record.batch().getVector(KEY);
      for (int i = 0; i < record.rowCount(); i++) {
        if (!keys.isNull(i)) {
          buildKeys.add(keys.get(i));
        }
      }
    }
  }

  @Override
  protected void buildFinished() {
    if (probing) {
      throw new IllegalStateException("build finished after probing started");
    }
  }

  @Override
  protected void probe(BatchRecord record) {
    probing = true;
    try (record) {
      BigIntVector keys = (BigIntVector) record.batch().getVector(KEY);
      int[] matches = new int[record.rowCount()];
      int count = 0;
      for (int i = 0; i < record.rowCount(); i++) {
        if (!keys.isNull(i) && buildKeys.contains(keys.get(i))) {
          matches[count++] = i;
        }
      }
      if (count > 0) {
        emit(BatchRecord.data(partition(), Take.take(record.batch(), matches, count, allocator())));
      }
    }
  }

  @Override
  protected void probeFinished() {}
}
