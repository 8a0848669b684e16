package dev.quiver.cli.format;

import java.io.Writer;

/** The formats {@code quiver sql --format} offers. */
public enum ResultFormat {
  /** Aligned columns for people: {@link TableResultWriter}. */
  TABLE,
  /** RFC 4180 CSV with a header: {@link CsvResultWriter}. */
  CSV,
  /** One JSON object per row and line: {@link JsonLinesResultWriter}. */
  JSON;

  /** A writer of this format to {@code out}. */
  public ResultWriter writer(Writer out) {
    switch (this) {
      case TABLE:
        return new TableResultWriter(out);
      case CSV:
        return new CsvResultWriter(out);
      case JSON:
        return new JsonLinesResultWriter(out);
      default:
        throw new IllegalStateException("unknown format " + this);
    }
  }
}
