package dev.quiver.cli;

import dev.quiver.cli.format.ResultWriter;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Runs one query and streams its result batch by batch into a {@link ResultWriter}: each batch is
 * written and closed before the next is taken, so CSV and JSON never hold more than one batch.
 * Output to standard output is flushed after every batch, with the progress line erased meanwhile;
 * if standard output has gone (the reader of a pipe quit) the query is cancelled.
 */
final class ResultStreaming {
  private ResultStreaming() {}

  /**
   * Runs {@code sql} and writes its result to {@code output} with {@code writer}, or only counts
   * its rows when {@code writer} is null.
   *
   * @return the number of rows
   */
  static long run(
      QuiverSession session,
      String sql,
      ResultWriter writer,
      ResultOutput output,
      Progress progress)
      throws IOException {
    try (SqlResult result = session.sql(sql)) {
      return write(session, result, writer, output, progress);
    }
  }

  /**
   * Writes the result of a started query to {@code output} with {@code writer} batch by batch, or
   * only counts its rows when {@code writer} is null; the caller closes {@code result}. A stream's
   * result is written until the stream ends or the query is cancelled.
   *
   * @return the number of rows
   */
  static long write(
      QuiverSession session,
      SqlResult result,
      ResultWriter writer,
      ResultOutput output,
      Progress progress)
      throws IOException {
    long rows = 0;
    watchStages(session, result, progress);
    if (writer != null) {
      writer.begin(result.schema());
    }
    while (result.hasNext()) {
      try (VectorSchemaRoot batch = result.next()) {
        if (writer != null) {
          write(writer, batch, output, progress);
        }
        rows += batch.getRowCount();
        progress.addRows(batch.getRowCount());
      }
    }
    if (writer != null) {
      progress.quiet(
          () -> {
            writer.end();
            checkStdout(output);
          });
    }
    return rows;
  }

  /** Lets a drawn progress line show the stages of {@code result}'s job done / total. */
  static void watchStages(QuiverSession session, SqlResult result, Progress progress) {
    if (progress.enabled()) {
      progress.watch(
          new JobStages(
              session.restAddress(), result.jobId().toHexString(), result.graph().stages().size()));
    }
  }

  private static void write(
      ResultWriter writer, VectorSchemaRoot batch, ResultOutput output, Progress progress)
      throws IOException {
    if (!output.isStdout()) {
      writer.write(batch);
      return;
    }
    progress.quiet(
        () -> {
          writer.write(batch);
          checkStdout(output);
        });
  }

  private static void checkStdout(ResultOutput output) throws IOException {
    if (output.isStdout() && output.flushFailed()) {
      throw new CliException(
          "cannot write to standard output (closed pipe?): the query was stopped");
    }
  }
}
