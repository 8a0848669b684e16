package dev.quiver.flink.compiler;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.plan.node.Scan;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Where the batches of a {@link Scan} leaf come from: the file connector (or a test) turns a
 * planned scan into a Flink stream, and the compiler forwards it into the stage that reads it.
 *
 * <p>Contract: the returned stream has exactly {@link Scan#tasks()} parallel tasks, and task {@code
 * t} reads exactly the split units {@code scan.assignment().get().get(t)} that the stage planner
 * gave it (never a share picked by task index at run time). Its data records carry batches of
 * {@code type}'s schema (the scan's schema); markers are allowed and ignored. The compiler calls
 * this once per scan, on the client, while it builds the job.
 */
@FunctionalInterface
public interface ScanSourceFactory {
  /** A factory for plans without scans: any scan fails with a message that says what is missing. */
  ScanSourceFactory NONE =
      (env, scan, type) -> {
        throw new IllegalArgumentException(
            "the plan reads "
                + scan
                + " but the compiler has no ScanSourceFactory: give it one with"
                + " StageGraphCompiler.withScanSources");
      };

  DataStream<BatchRecord> source(StreamExecutionEnvironment env, Scan scan, BatchTypeInfo type);
}
