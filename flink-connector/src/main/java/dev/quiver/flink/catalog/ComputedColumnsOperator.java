package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.scalar.BatchProjection;
import dev.quiver.plan.expr.Expr;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Computes the columns a scan of a bounded file table reads (physical ones passed through, computed
 * ones evaluated, vectorized: {@link BatchProjection}) from the batches of its physical columns, in
 * the scan's tasks. Markers are dropped: a scan's consumer ignores them.
 */
final class ComputedColumnsOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final List<Expr> expressions;
  private final List<String> names;
  private transient BatchProjection projection;

  private ComputedColumnsOperator(List<Expr> expressions, List<String> names) {
    this.expressions = List.copyOf(requireNonNull(expressions, "expressions is null"));
    this.names = List.copyOf(requireNonNull(names, "names is null"));
  }

  /**
   * {@code stored} with each batch made into {@code expressions} (over its columns), {@code type}.
   */
  static DataStream<BatchRecord> compute(
      DataStream<BatchRecord> stored,
      List<Expr> expressions,
      List<String> names,
      BatchTypeInfo type,
      String name) {
    return stored
        .forward()
        .transform(
            name + ": computed columns", type, new ComputedColumnsOperator(expressions, names))
        .setParallelism(stored.getParallelism());
  }

  @Override
  public void open() throws Exception {
    super.open();
    projection = new BatchProjection(expressions, names);
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (record.isData()) {
        emit(BatchRecord.data(partition(), projection.project(record.batch(), allocator())));
      }
    }
  }
}
