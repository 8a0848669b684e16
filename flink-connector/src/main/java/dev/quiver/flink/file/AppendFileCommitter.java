package dev.quiver.flink.file;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the files of an {@link AppendFileSink} whose checkpoint has completed: each is renamed
 * from its hidden pending name to its visible name in one atomic step.
 *
 * <p>Idempotent: Flink repeats the commits of a restored checkpoint that may have been done
 * already, and a file found under its visible name without its pending one is reported as
 * committed. A file found under neither name has lost its rows: the commit fails, and the job with
 * it, rather than go on without them.
 */
final class AppendFileCommitter implements Committer<PendingFile> {
  private static final Logger LOG = LoggerFactory.getLogger(AppendFileCommitter.class);

  @Override
  public void commit(Collection<CommitRequest<PendingFile>> requests) throws IOException {
    for (CommitRequest<PendingFile> request : requests) {
      PendingFile file = request.getCommittable();
      Path pending = Path.of(file.pending());
      Path target = Path.of(file.target());
      if (Files.exists(pending)) {
        Files.move(pending, target, StandardCopyOption.ATOMIC_MOVE);
        LOG.debug("committed {} rows: {}", file.rows(), target);
      } else if (Files.exists(target)) {
        LOG.info("{} was already committed", target);
        request.signalAlreadyCommitted();
      } else {
        throw new QuiverException(
            ErrorCode.FILE_WRITE_FAILED,
            "Cannot commit "
                + target
                + ": its finished file "
                + pending
                + " is gone, and "
                + file.rows()
                + " rows with it");
      }
    }
  }

  @Override
  public void close() {}
}
