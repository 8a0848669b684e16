package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where a result goes: standard output, or a file that appears only when the whole result is in it
 * (written beside it as {@code .NAME.tmp}, moved over it by {@link #commit()}, deleted if the query
 * fails), so that a failed query never leaves a truncated file that looks complete.
 */
final class ResultOutput implements AutoCloseable {
  private final Writer writer;
  private final PrintWriter stdout; // null for a file
  private final Path target;
  private final Path temp;
  private boolean done;

  private ResultOutput(Writer writer, PrintWriter stdout, Path target, Path temp) {
    this.writer = writer;
    this.stdout = stdout;
    this.target = target;
    this.temp = temp;
  }

  static ResultOutput stdout(PrintWriter out) {
    return new ResultOutput(requireNonNull(out, "out is null"), out, null, null);
  }

  /** A UTF-8 file, replaced when the result is complete. */
  static ResultOutput file(Path file) {
    Path target = file.toAbsolutePath().normalize();
    Path temp = target.resolveSibling("." + target.getFileName() + ".tmp");
    try {
      Files.createDirectories(target.getParent());
      return new ResultOutput(
          Files.newBufferedWriter(temp, StandardCharsets.UTF_8), null, target, temp);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }

  /** Standard output or the file, as {@code file} says. */
  static ResultOutput of(Path file, PrintWriter out) {
    return file == null ? stdout(out) : file(file);
  }

  Writer writer() {
    return writer;
  }

  /** Whether this is standard output (a terminal, maybe). */
  boolean isStdout() {
    return stdout != null;
  }

  /** Flushes; true if standard output is gone (a closed pipe), which PrintWriter hides. */
  boolean flushFailed() throws IOException {
    if (stdout != null) {
      return stdout.checkError(); // flushes
    }
    writer.flush();
    return false;
  }

  /** The result is complete: flush standard output, or move the file into place. */
  void commit() {
    if (done) {
      return;
    }
    done = true;
    try {
      if (stdout != null) {
        stdout.flush();
        return;
      }
      ((BufferedWriter) writer).close();
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }

  /** Without {@link #commit()}: drops the file (standard output is only flushed). */
  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    if (stdout != null) {
      stdout.flush();
      return;
    }
    try {
      writer.close();
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      // the failure being reported matters more than a leftover temporary file
    }
  }
}
