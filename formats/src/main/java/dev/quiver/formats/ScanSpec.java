package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a file scan reads: the table's format, schema and CSV options, the projected columns, an
 * optional predicate for skipping, and the batch size. Serializable (the schema travels as Arrow
 * JSON) so that a source can ship it to its tasks.
 */
public final class ScanSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The default number of rows per batch. */
  public static final int DEFAULT_BATCH_ROWS = 8192;

  private final FileFormat format;
  private final String schemaJson;
  private final ArrayList<String> columns;
  private final ScanPredicate predicate; // nullable: Optional is not Serializable
  private final CsvOptions csv;
  private final int batchRows;
  private transient Schema schema;

  private ScanSpec(
      FileFormat format,
      Schema schema,
      List<String> columns,
      ScanPredicate predicate,
      CsvOptions csv,
      int batchRows) {
    this.format = requireNonNull(format, "format is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.schemaJson = schema.toJson();
    this.columns = new ArrayList<>(requireNonNull(columns, "columns is null"));
    this.predicate = predicate;
    this.csv = requireNonNull(csv, "csv is null");
    if (batchRows < 1) {
      throw new IllegalArgumentException("batchRows must be positive: " + batchRows);
    }
    this.batchRows = batchRows;
  }

  /**
   * A scan of all columns of a table of {@code format} and {@code schema} (see {@link
   * TableSchemas}).
   */
  public static ScanSpec of(FileFormat format, Schema schema, CsvOptions csv) {
    List<String> all = new ArrayList<>();
    schema.getFields().forEach(f -> all.add(f.getName()));
    return new ScanSpec(format, schema, all, null, csv, DEFAULT_BATCH_ROWS);
  }

  /** Only {@code names}, in this order (an empty list reads row counts only). */
  public ScanSpec withColumns(List<String> names) {
    return new ScanSpec(format, schema(), names, predicate, csv, batchRows);
  }

  /** Columns by index into the table schema. */
  public ScanSpec withColumnIndexes(List<Integer> indexes) {
    List<String> names = new ArrayList<>();
    indexes.forEach(i -> names.add(schema().getFields().get(i).getName()));
    return withColumns(names);
  }

  public ScanSpec withPredicate(Optional<ScanPredicate> value) {
    return new ScanSpec(format, schema(), columns, value.orElse(null), csv, batchRows);
  }

  public ScanSpec withBatchRows(int value) {
    return new ScanSpec(format, schema(), columns, predicate, csv, value);
  }

  public FileFormat format() {
    return format;
  }

  /** The table schema (all columns). */
  public Schema schema() {
    if (schema == null) {
      try {
        schema = Schema.fromJSON(schemaJson);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot parse the schema of a scan", e);
      }
    }
    return schema;
  }

  /** The projected column names. */
  public List<String> columns() {
    return List.copyOf(columns);
  }

  public Optional<ScanPredicate> predicate() {
    return Optional.ofNullable(predicate);
  }

  public CsvOptions csv() {
    return csv;
  }

  public int batchRows() {
    return batchRows;
  }

  /** The schema of the batches the scan produces: the projected fields of {@link #schema()}. */
  public Schema outputSchema() {
    List<Field> fields = new ArrayList<>(columns.size());
    for (String name : columns) {
      fields.add(field(name));
    }
    return new Schema(fields);
  }

  Field field(String name) {
    for (Field field : schema().getFields()) {
      if (field.getName().equals(name)) {
        return field;
      }
    }
    throw new IllegalArgumentException(
        "no column '" + name + "' in the table schema " + schema().getFields());
  }
}
