package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.StandardSinkTopologies;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;

/**
 * A Sink v2 that writes a query's result as a directory of Parquet, CSV or Arrow IPC files, one
 * {@code part-NNNNN.<ext>} per writer task, atomically.
 *
 * <p>Guarantee (bounded input, BATCH execution): the target directory appears, complete, only when
 * every writer task has finished; until then nothing exists under its name. Protocol:
 *
 * <ol>
 *   <li>Each writer task writes its part into a job-scoped staging directory beside the target,
 *       {@code .<name>.staging-<uuid>} (hidden, so table readers skip it), with a {@link
 *       BatchFileWriter}, which itself keeps unfinished data in a temporary file.
 *   <li>At the end of its input a writer completes its part and sends a {@link FilePart}.
 *   <li>A global committer (parallelism 1, after every writer) renames the staging directory to the
 *       target in one atomic step (see {@link FileSinkCommitter}).
 * </ol>
 *
 * <p>If the job fails or is cancelled before that rename, a failed writer deletes its own
 * unfinished file and the client deletes the staging directory with every staged part (see {@link
 * FileSinkCleanup}, registered by {@link #write}); the target never appears. That last step runs on
 * the submitting client: a job submitted detached from a client that exits can leave a hidden
 * staging directory, which a later run does not reuse. The target must not exist, or be an empty
 * directory, both when the sink is built and when it commits.
 */
public final class FileSink
    implements Sink<BatchRecord>,
        SupportsCommitter<FilePart>,
        SupportsPostCommitTopology<FilePart> {
  private static final long serialVersionUID = 1L;

  private final String target;
  private final String staging;
  private final FileFormat format;
  private final String schemaJson;

  private FileSink(Path target, FileFormat format, Schema schema) {
    Path absolute = target.toAbsolutePath().normalize();
    this.target = absolute.toString();
    this.staging =
        absolute
            .resolveSibling("." + absolute.getFileName() + ".staging-" + UUID.randomUUID())
            .toString();
    this.format = format;
    this.schemaJson = schema.toJson();
  }

  /**
   * A sink of batches of {@code schema} into the directory {@code target}.
   *
   * @throws QuiverException {@link ErrorCode#FILE_WRITE_FAILED} if {@code target} exists and is not
   *     an empty directory
   */
  public static FileSink to(Path target, FileFormat format, Schema schema) {
    requireNonNull(target, "target is null");
    requireNonNull(format, "format is null");
    requireNonNull(schema, "schema is null");
    checkTarget(target);
    return new FileSink(target, format, schema);
  }

  /**
   * Writes {@code stream} to {@code target} with one writer task per task of {@code stream}
   * (chained to it), and registers the client-side cleanup of a failed job in its environment.
   */
  public static DataStreamSink<BatchRecord> write(
      DataStream<BatchRecord> stream, Path target, FileFormat format) {
    requireNonNull(stream, "stream is null");
    if (!(stream.getType() instanceof BatchTypeInfo type)) {
      throw new IllegalArgumentException("not a stream of Arrow batches: " + stream.getType());
    }
    FileSink sink = to(target, format, type.schema());
    stream.getExecutionEnvironment().registerJobListener(sink.cleanup());
    return stream
        .sinkTo(sink)
        .name("write " + format + " " + sink.target)
        .setParallelism(stream.getParallelism());
  }

  /** The listener that deletes the staged files of a failed or cancelled job on the client. */
  public JobListener cleanup() {
    return new FileSinkCleanup(Path.of(staging));
  }

  public Path target() {
    return Path.of(target);
  }

  /** The job-scoped staging directory (hidden, beside the target). */
  public Path staging() {
    return Path.of(staging);
  }

  private static void checkTarget(Path target) {
    if (!Files.exists(target)) {
      return;
    }
    boolean empty;
    try (Stream<Path> entries = Files.isDirectory(target) ? Files.list(target) : null) {
      empty = entries != null && entries.findAny().isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + target, e);
    }
    if (!empty) {
      throw new QuiverException(
          ErrorCode.FILE_WRITE_FAILED,
          "Cannot write to " + target + ": it already exists; choose a new directory");
    }
  }

  @Override
  public SinkWriter<BatchRecord> createWriter(WriterInitContext context) {
    Schema schema;
    try {
      schema = Schema.fromJSON(schemaJson);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot parse the schema of " + target, e);
    }
    return new FileSinkWriter(
        Path.of(staging),
        format,
        schema,
        context.getTaskInfo().getIndexOfThisSubtask(),
        context.getTaskInfo().getNumberOfParallelSubtasks());
  }

  @Override
  public Committer<FilePart> createCommitter(CommitterInitContext context) {
    return new PassOn();
  }

  @Override
  public SimpleVersionedSerializer<FilePart> getCommittableSerializer() {
    return FilePart.Serializer.INSTANCE;
  }

  @Override
  public void addPostCommitTopology(DataStream<CommittableMessage<FilePart>> committables) {
    String stagingDir = staging;
    String targetDir = target;
    StandardSinkTopologies.addGlobalCommitter(
        committables,
        () -> new FileSinkCommitter(Path.of(stagingDir), Path.of(targetDir)),
        () -> FilePart.Serializer.INSTANCE);
  }

  /**
   * The per-task committer: a part only becomes visible with all others, in the global commit, so
   * each task's commit just passes its part on.
   */
  private static final class PassOn implements Committer<FilePart> {
    @Override
    public void commit(Collection<CommitRequest<FilePart>> requests) {}

    @Override
    public void close() {}
  }
}
