package dev.quiver.benchmarks.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Parquet files of a data set, {@code DIR/<table>/*.parquet}: how many per table and their
 * bytes in all, for the report's description of the data.
 *
 * @param files Parquet files per table, in the order asked for
 * @param bytes the size of all of them
 */
public record DataFiles(Map<String, Integer> files, long bytes) {

  /** Counts the Parquet files of {@code tables} in {@code dir}. */
  public static DataFiles of(Path dir, Collection<String> tables) {
    long bytes = 0;
    Map<String, Integer> files = new LinkedHashMap<>();
    for (String table : tables) {
      try (Stream<Path> paths = Files.list(dir.resolve(table))) {
        List<Path> parquet =
            paths.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
        files.put(table, parquet.size());
        for (Path file : parquet) {
          bytes += Files.size(file);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new DataFiles(Collections.unmodifiableMap(files), bytes);
  }

  /** The number of files of {@code table}. */
  public int of(String table) {
    return files.getOrDefault(table, 0);
  }

  /** The files of all tables. */
  public int total() {
    return files.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Megabytes (10^6 bytes). */
  public double megabytes() {
    return bytes / 1e6;
  }
}
