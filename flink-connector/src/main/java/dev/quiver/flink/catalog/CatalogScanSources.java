package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.compiler.ScanSourceFactory;
import dev.quiver.plan.node.Scan;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The scan sources of every table a session's catalog holds: files ({@link FileScanSources}) and
 * streams ({@link StreamTables}: Kafka topics, watched directories), told apart by their connector
 * options. Use a new one per query, as {@link FileScanSources}.
 */
public final class CatalogScanSources implements ScanSourceFactory {
  private final FileScanSources files = new FileScanSources();

  @Override
  public DataStream<BatchRecord> source(
      StreamExecutionEnvironment env, Scan scan, BatchTypeInfo type) {
    requireNonNull(scan, "scan is null");
    if (StreamTables.isUpsertKafka(scan.source().options())) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          "Table '"
              + scan.source().name()
              + "': an 'upsert-kafka' table is written by INSERT INTO; reading one is not supported"
              + " yet (read its topic as a 'kafka' table)");
    }
    return StreamTables.isStreamTable(scan.source().options())
        ? StreamTables.source(env, scan, type)
        : files.source(env, scan, type);
  }
}
