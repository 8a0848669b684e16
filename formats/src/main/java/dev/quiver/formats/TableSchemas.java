package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.memory.Allocators;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Finds the schema of a table from its files' metadata: the Parquet footer, the Arrow IPC schema,
 * or the CSV header plus type inference over the first block of each file. Every file is inspected,
 * so files that disagree are reported before any data is read.
 *
 * <p>Without a declared schema all files must have the same column names and (mapped, see {@link
 * FileTypes}) types in the same order; for CSV, whose types are guessed per file, a column that is
 * int64 in one file and float64 in another becomes float64, and an all-NULL column takes the type
 * the other files give it. With a declared schema, its columns are read by name (Parquet, IPC, CSV
 * with header) or by position (CSV without header) and converted to the declared types; every
 * declared column must exist in every file.
 */
public final class TableSchemas {
  private TableSchemas() {}

  /**
   * The schema of {@code table}, with Quiver's types.
   *
   * @param declared a schema that overrides inference
   * @throws QuiverException {@link ErrorCode#SCHEMA_MISMATCH} naming the first file that disagrees,
   *     {@link ErrorCode#INVALID_FILE} or {@link ErrorCode#MALFORMED_ROW} for a file whose metadata
   *     cannot be read
   */
  public static Schema resolve(TableFiles table, CsvOptions csv, Optional<Schema> declared) {
    requireNonNull(table, "table is null");
    requireNonNull(csv, "csv is null");
    requireNonNull(declared, "declared is null");
    try (BufferAllocator allocator = Allocators.newChild("quiver-schema:" + table.location())) {
      Schema result = null;
      String first = null;
      for (DataFile file : table.files()) {
        Schema schema = inspect(allocator, table.format(), file.path(), csv, declared);
        if (declared.isPresent()) {
          checkDeclared(declared.get(), schema, file.path(), table.format(), csv);
        } else if (result == null) {
          result = schema;
          first = file.path();
        } else {
          result = merge(result, first, schema, file.path(), table.format() == FileFormat.CSV);
        }
      }
      Schema schema = declared.orElse(result);
      return FileTypes.normalize(schema);
    }
  }

  private static Schema inspect(
      BufferAllocator allocator,
      FileFormat format,
      String path,
      CsvOptions csv,
      Optional<Schema> declared) {
    Schema columnTypes = null;
    if (format == FileFormat.CSV && declared.isPresent()) {
      columnTypes = csv.header() ? declared.get() : Datasets.withGeneratedNames(declared.get());
    }
    try (FileSystemDatasetFactory factory =
        Datasets.open(allocator, format, path, csv, columnTypes)) {
      return factory.inspect();
    } catch (RuntimeException e) {
      List<String> names = new ArrayList<>();
      declared.ifPresent(s -> s.getFields().forEach(f -> names.add(f.getName())));
      throw FileErrors.translate(e, path, format, names);
    }
  }

  private static void checkDeclared(
      Schema declared, Schema file, String path, FileFormat format, CsvOptions csv) {
    if (format == FileFormat.CSV && !csv.header()) {
      if (file.getFields().size() != declared.getFields().size()) {
        throw new QuiverException(
            ErrorCode.SCHEMA_MISMATCH,
            "File "
                + path
                + " has "
                + file.getFields().size()
                + " columns but the declared schema has "
                + declared.getFields().size());
      }
      return;
    }
    Set<String> names = new HashSet<>();
    file.getFields().forEach(f -> names.add(f.getName()));
    for (Field field : declared.getFields()) {
      if (!names.contains(field.getName())) {
        throw new QuiverException(
            ErrorCode.SCHEMA_MISMATCH,
            "File "
                + path
                + " has no column '"
                + field.getName()
                + "' of the declared schema; its columns are "
                + columnNames(file));
      }
    }
  }

  private static Schema merge(
      Schema expected, String expectedPath, Schema actual, String path, boolean csv) {
    List<Field> a = expected.getFields();
    List<Field> b = actual.getFields();
    if (a.size() != b.size()) {
      throw mismatch(expectedPath, path, columnNames(expected) + " vs " + columnNames(actual));
    }
    List<Field> merged = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      Field x = FileTypes.normalize(a.get(i));
      Field y = FileTypes.normalize(b.get(i));
      if (!x.getName().equals(y.getName())) {
        throw mismatch(
            expectedPath,
            path,
            "column " + (i + 1) + " is '" + x.getName() + "' vs '" + y.getName() + "'");
      }
      ArrowType type;
      if (a.get(i).getType().equals(b.get(i).getType())) {
        type = a.get(i).getType(); // still raw: an all-NULL CSV column may meet its real type later
      } else if (x.getType().equals(y.getType())) {
        type = x.getType();
      } else {
        type = csv ? widen(a.get(i), b.get(i)) : null;
      }
      if (type == null) {
        throw mismatch(
            expectedPath,
            path,
            "column '" + x.getName() + "' is " + x.getType() + " vs " + y.getType());
      }
      boolean nullable = x.isNullable() || y.isNullable();
      merged.add(new Field(x.getName(), new FieldType(nullable, type, null), null));
    }
    return new Schema(merged);
  }

  // CSV type inference guesses per file; these are the guesses that still agree on the data.
  private static ArrowType widen(Field a, Field b) {
    if (a.getType() instanceof ArrowType.Null) {
      return b.getType();
    }
    if (b.getType() instanceof ArrowType.Null) {
      return a.getType();
    }
    boolean numeric =
        (a.getType() instanceof ArrowType.Int || a.getType() instanceof ArrowType.FloatingPoint)
            && (b.getType() instanceof ArrowType.Int
                || b.getType() instanceof ArrowType.FloatingPoint);
    return numeric ? new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE) : null;
  }

  private static QuiverException mismatch(String first, String other, String detail) {
    return new QuiverException(
        ErrorCode.SCHEMA_MISMATCH,
        "Files of one table have incompatible schemas: "
            + other
            + " does not match "
            + first
            + " ("
            + detail
            + "); declare a schema or separate the files");
  }

  private static List<String> columnNames(Schema schema) {
    List<String> names = new ArrayList<>();
    schema.getFields().forEach(f -> names.add(f.getName()));
    return names;
  }
}
