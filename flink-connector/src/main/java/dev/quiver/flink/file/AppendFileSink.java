package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.formats.FileFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;

/**
 * A Sink v2 that appends a stream of batches to a directory of Parquet, CSV or Arrow IPC files,
 * exactly once: every row is in one visible file once the checkpoint after it has completed (or the
 * bounded input has ended), and a reader of the directory never sees a row twice or one that may
 * still be taken back.
 *
 * <pre>
 *   writer task p:  batches ─► .part-&lt;id&gt;-p-n.parquet.pending   (hidden; BatchFileWriter,
 *                                                                   itself atomic)
 *   checkpoint k barrier:  the file is finished ─► committable
 *   checkpoint k complete: committer renames it ─► part-&lt;id&gt;-p-n.parquet   (visible)
 * </pre>
 *
 * <p>The protocol is Flink's own {@code FileSink}'s for bulk formats (a part file rolls at every
 * checkpoint), written over Quiver's Arrow writers, which need a local path, not a Flink stream:
 *
 * <ul>
 *   <li>Each writer task writes its rows into a file of its own under a hidden name ({@code .}
 *       first, which every table reader skips); a task that received no rows since the last
 *       checkpoint writes no file.
 *   <li>At a checkpoint's barrier (and at the end of a bounded input) the task finishes its file
 *       and hands its path on as a {@link PendingFile}; Flink keeps it in the checkpoint.
 *   <li>When the checkpoint completes, the committer (one per writer task, chained) renames it to
 *       its visible name {@code part-<writer id>-<task>-<n>.<ext>} in one atomic step. A commit
 *       repeated after a restart finds the visible file and no pending one: already done.
 *   <li>A failure drops what the failed attempt wrote after the checkpoint it restarts from: the
 *       unfinished file is deleted when its writer closes, a file finished for a checkpoint that
 *       never completed stays hidden (as Flink's {@code .inprogress} files do). The restarted
 *       sources read those rows again, and they are written once more, into new files.
 * </ul>
 *
 * <p>The directory may hold files already (an {@code INSERT INTO} appends) and is created if
 * missing; it must be reachable at the same path by every TaskManager (local, or a shared mount).
 */
public final class AppendFileSink implements Sink<BatchRecord>, SupportsCommitter<PendingFile> {
  private static final long serialVersionUID = 1L;

  private final String directory;
  private final FileFormat format;
  private final String schemaJson;

  private AppendFileSink(Path directory, FileFormat format, Schema schema) {
    this.directory = directory.toAbsolutePath().normalize().toString();
    this.format = format;
    this.schemaJson = schema.toJson();
  }

  /** A sink of batches of {@code schema} into the directory {@code directory}. */
  public static AppendFileSink to(Path directory, FileFormat format, Schema schema) {
    return new AppendFileSink(
        requireNonNull(directory, "directory is null"),
        requireNonNull(format, "format is null"),
        requireNonNull(schema, "schema is null"));
  }

  /** Writes {@code stream} to {@code directory} with one writer task per task of the stream. */
  public static DataStreamSink<BatchRecord> write(
      DataStream<BatchRecord> stream, Path directory, FileFormat format) {
    requireNonNull(stream, "stream is null");
    if (!(stream.getType() instanceof BatchTypeInfo type)) {
      throw new IllegalArgumentException("not a stream of Arrow batches: " + stream.getType());
    }
    AppendFileSink sink = to(directory, format, type.schema());
    return stream
        .sinkTo(sink)
        .name("append " + format + " " + sink.directory)
        .setParallelism(stream.getParallelism());
  }

  public Path directory() {
    return Path.of(directory);
  }

  @Override
  public SinkWriter<BatchRecord> createWriter(WriterInitContext context) {
    Schema schema;
    try {
      schema = Schema.fromJSON(schemaJson);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot parse the schema of " + directory, e);
    }
    return new AppendFileWriter(
        Path.of(directory), format, schema, context.getTaskInfo().getIndexOfThisSubtask());
  }

  @Override
  public Committer<PendingFile> createCommitter(CommitterInitContext context) {
    return new AppendFileCommitter();
  }

  @Override
  public SimpleVersionedSerializer<PendingFile> getCommittableSerializer() {
    return PendingFile.Serializer.INSTANCE;
  }
}
