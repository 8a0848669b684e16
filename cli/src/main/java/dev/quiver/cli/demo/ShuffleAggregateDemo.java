package dev.quiver.cli.demo;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.Exchanges;
import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.operators.memory.Allocators;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * The demonstration job: generate lineitem-like Arrow batches in parallel, hash-shuffle them by
 * status between Flink tasks, total each status, and stream the totals back to the terminal.
 *
 * <pre>
 *  sequence ─► generate (P tasks) ─hash(status)─► aggregate (P tasks) ─► client
 * </pre>
 */
public final class ShuffleAggregateDemo {
  private static final String[] STATUS = {"A/F", "N/F", "N/O", "R/F"};

  private final int parallelism;
  private final long batches;

  public ShuffleAggregateDemo(int parallelism, long batches) {
    this.parallelism = parallelism;
    this.batches = batches;
  }

  /** Runs the job on an in-process MiniCluster and prints the totals and timings. */
  @SuppressWarnings("try") // Flink's CloseableIterator.close() declares Exception
  public void run(PrintStream out) throws Exception {
    long rowsIn = batches * LineitemGenerator.ROWS_PER_BATCH;
    out.printf(
        "Quiver demo: %,d rows in %,d Arrow batches, %d Flink tasks per stage%n",
        rowsIn, batches, parallelism);
    long start = System.nanoTime();
    List<Object[]> totals = new ArrayList<>();
    try (BufferAllocator allocator = Allocators.newChild("demo client");
        CloseableIterator<BatchRecord> results =
            BatchResults.collect(job(), allocator, "quiver demo")) {
      while (results.hasNext()) {
        try (BatchRecord record = results.next()) {
          totals.addAll(rows(record.batch()));
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    totals.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
    out.printf("%-6s %12s %18s %22s%n", "status", "rows", "sum(quantity)", "sum(price)");
    long rowsOut = 0;
    for (Object[] row : totals) {
      out.printf("%-6s %,12d %18s %22s%n", row);
      rowsOut += (Long) row[1];
    }
    out.printf(
        "%nrows counted %,d of %,d generated: %s%n",
        rowsOut, rowsIn, rowsOut == rowsIn ? "all rows accounted for" : "MISMATCH");
    out.printf(
        "job time %.2f s (MiniCluster start included), %,.0f rows/s%n", seconds, rowsIn / seconds);
    if (rowsOut != rowsIn) {
      throw new IllegalStateException("the demo lost or duplicated rows");
    }
  }

  private DataStream<BatchRecord> job() {
    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    DataStream<BatchRecord> lineitems =
        env.fromSequence(0, batches - 1)
            .setParallelism(parallelism)
            .transform("generate lineitems", LineitemGenerator.TYPE, new LineitemGenerator())
            .setParallelism(parallelism);
    return Exchanges.shuffle(lineitems, new int[] {1}, parallelism)
        .transform("total per status", StatusAggregator.TYPE, new StatusAggregator())
        .setParallelism(parallelism);
  }

  private static List<Object[]> rows(VectorSchemaRoot batch) {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < batch.getRowCount(); i++) {
      rows.add(
          new Object[] {
            STATUS[((IntVector) batch.getVector(0)).get(i)],
            ((BigIntVector) batch.getVector(1)).get(i),
            ((DecimalVector) batch.getVector(2)).getObject(i).toPlainString(),
            ((DecimalVector) batch.getVector(3)).getObject(i).toPlainString()
          });
    }
    return rows;
  }
}
