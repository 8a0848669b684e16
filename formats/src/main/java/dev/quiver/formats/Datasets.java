package dev.quiver.formats;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.FragmentScanOptions;
import org.apache.arrow.dataset.scanner.csv.CsvConvertOptions;
import org.apache.arrow.dataset.scanner.csv.CsvFragmentScanOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Opens Arrow dataset factories over single files, with Quiver's CSV options translated to Arrow's.
 *
 * <p>Every factory covers exactly one file, so an error always belongs to a known file and a task
 * reads exactly its splits.
 */
final class Datasets {
  private Datasets() {}

  /**
   * A dataset factory over the file at {@code path}; the caller closes it.
   *
   * @param csvColumnTypes for CSV: the types of the columns named in it (by physical name, i.e.
   *     {@code f0, f1, ...} without a header), inferred for the others; null to infer all
   */
  static FileSystemDatasetFactory open(
      BufferAllocator allocator,
      FileFormat format,
      String path,
      CsvOptions csv,
      Schema csvColumnTypes) {
    String uri = Paths.get(path).toUri().toString();
    if (format != FileFormat.CSV) {
      return new FileSystemDatasetFactory(
          allocator, NativeMemoryPool.getDefault(), format.datasetFormat(), uri);
    }
    // Arrow imports (and so releases) the exported schema while creating the factory; release()
    // afterwards only matters when creation failed before the import.
    try (ArrowSchema columnTypes = ArrowSchema.allocateNew(allocator);
        CDataDictionaryProvider dictionaries = new CDataDictionaryProvider()) {
      CsvConvertOptions convert = new CsvConvertOptions(csv.convertOptions());
      if (csvColumnTypes != null && !csvColumnTypes.getFields().isEmpty()) {
        Data.exportSchema(allocator, csvColumnTypes, dictionaries, columnTypes);
        convert.setArrowSchema(columnTypes);
      }
      FragmentScanOptions options =
          new CsvFragmentScanOptions(convert, csv.readOptions(), csv.parseOptions());
      try {
        return new FileSystemDatasetFactory(
            allocator,
            NativeMemoryPool.getDefault(),
            format.datasetFormat(),
            uri,
            Optional.of(options));
      } finally {
        columnTypes.release();
      }
    }
  }

  /** The physical CSV column name of column {@code index} in a file without a header. */
  static String generatedName(int index) {
    return "f" + index;
  }

  /** {@code schema} with its fields renamed to {@code f0, f1, ...}. */
  static Schema withGeneratedNames(Schema schema) {
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < schema.getFields().size(); i++) {
      Field field = schema.getFields().get(i);
      fields.add(new Field(generatedName(i), field.getFieldType(), field.getChildren()));
    }
    return new Schema(fields);
  }

  /** {@code schema} with its fields renamed to {@code names}, in order. */
  static Schema withNames(Schema schema, List<String> names) {
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < schema.getFields().size(); i++) {
      Field field = schema.getFields().get(i);
      fields.add(new Field(names.get(i), field.getFieldType(), field.getChildren()));
    }
    return new Schema(fields);
  }
}
