package dev.quiver.flink.compiler;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.values.ValuesOperator;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A test {@link ScanSourceFactory}: tables of {@link TestTables} rows whose split units name their
 * rows ({@code gen:<first id>:<count>}); scan task t generates exactly the units the planner
 * assigned to task t.
 */
final class GeneratedScans implements ScanSourceFactory {
  /** A table of {@code units} units of {@code rowsPerUnit} rows each, ids from 0. */
  static TableSource table(String name, int units, int rowsPerUnit) {
    List<SplitUnit> split = new ArrayList<>();
    for (int u = 0; u < units; u++) {
      split.add(
          SplitUnit.file("gen:" + (long) u * rowsPerUnit + ":" + rowsPerUnit, 1000, rowsPerUnit));
    }
    return new TableSource(name, TestTables.SCHEMA, split);
  }

  @Override
  public DataStream<BatchRecord> source(
      StreamExecutionEnvironment env, Scan scan, BatchTypeInfo type) {
    List<List<SplitUnit>> assignment = scan.assignment().orElseThrow();
    return env.fromSequence(0, scan.tasks() - 1)
        .setParallelism(scan.tasks())
        .transform("scan " + scan.source().name(), type, new UnitReader(assignment))
        .setParallelism(scan.tasks());
  }

  /** Task t emits the rows of the units of {@code assignment.get(t)}, once its trigger ends. */
  private static final class UnitReader extends BatchOperator
      implements OneInputStreamOperator<Long, BatchRecord>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final List<List<SplitUnit>> assignment;

    UnitReader(List<List<SplitUnit>> assignment) {
      this.assignment = assignment;
    }

    @Override
    public void processElement(StreamRecord<Long> element) {}

    @Override
    public void endInput() {
      for (SplitUnit unit : assignment.get(partition())) {
        String[] parts = unit.path().split(":");
        new ValuesOperator(
                OperatorContext.of(allocator()),
                TestTables.SCHEMA.toArrow(),
                TestTables.rows(Long.parseLong(parts[1]), Integer.parseInt(parts[2])),
                batch -> emit(BatchRecord.data(partition(), batch)))
            .start();
      }
    }
  }
}
