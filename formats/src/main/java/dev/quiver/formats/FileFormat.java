package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The file formats Quiver reads and writes, and how a file name says which one it is.
 *
 * <p>Detection looks only at the extension (case-insensitive): {@code .parquet}; {@code .csv};
 * {@code .arrow}, {@code .feather} or {@code .ipc} for the Arrow IPC <em>file</em> format (the
 * random-access format with a footer, not the stream format).
 */
public enum FileFormat {
  PARQUET(org.apache.arrow.dataset.file.FileFormat.PARQUET, List.of(".parquet")),
  CSV(org.apache.arrow.dataset.file.FileFormat.CSV, List.of(".csv")),
  ARROW_IPC(
      org.apache.arrow.dataset.file.FileFormat.ARROW_IPC, List.of(".arrow", ".feather", ".ipc"));

  private final org.apache.arrow.dataset.file.FileFormat datasetFormat;
  private final List<String> extensions;

  FileFormat(org.apache.arrow.dataset.file.FileFormat datasetFormat, List<String> extensions) {
    this.datasetFormat = datasetFormat;
    this.extensions = extensions;
  }

  /** The extensions that select this format, lower case with the dot; the first is preferred. */
  public List<String> extensions() {
    return extensions;
  }

  /** The extension Quiver's writers give new files of this format. */
  public String defaultExtension() {
    return extensions.get(0);
  }

  /** The format of a file named {@code fileName}, or empty if the extension is not one of ours. */
  public static Optional<FileFormat> fromFileName(String fileName) {
    requireNonNull(fileName, "fileName is null");
    String lower = fileName.toLowerCase(Locale.ROOT);
    for (FileFormat format : values()) {
      for (String extension : format.extensions) {
        if (lower.endsWith(extension) && lower.length() > extension.length()) {
          return Optional.of(format);
        }
      }
    }
    return Optional.empty();
  }

  /** The format by user-facing name: {@code parquet}, {@code csv}, {@code arrow}/{@code ipc}. */
  public static FileFormat fromName(String name) {
    requireNonNull(name, "name is null");
    switch (name.toLowerCase(Locale.ROOT)) {
      case "parquet":
        return PARQUET;
      case "csv":
        return CSV;
      case "arrow":
      case "ipc":
      case "arrow_ipc":
      case "feather":
        return ARROW_IPC;
      default:
        throw new IllegalArgumentException(
            "unknown file format '" + name + "' (expected parquet, csv or arrow)");
    }
  }

  /** The same format in Arrow's dataset library. */
  org.apache.arrow.dataset.file.FileFormat datasetFormat() {
    return datasetFormat;
  }
}
