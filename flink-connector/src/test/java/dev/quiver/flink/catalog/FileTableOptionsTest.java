package dev.quiver.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.OrdersFiles;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** File table descriptions survive the trip through scan options exactly. */
class FileTableOptionsTest {
  @Test
  void csvOptionsAndDeclaredSchemaRoundTrip() {
    CsvOptions csv =
        CsvOptions.DEFAULT
            .withDelimiter('\t')
            .withHeader(false)
            .withQuote(Optional.empty())
            .withEscape(Optional.of('\\'))
            .withNullString("NA");
    FileTableSpec spec =
        FileTableSpec.of("/data/orders/*.csv")
            .withFormat(FileFormat.CSV)
            .withCsv(csv)
            .withSchema(OrdersFiles.SCHEMA);

    Map<String, String> options = spec.toOptions();

    assertThat(options)
        .containsEntry(FileTableOptions.CONNECTOR, "file")
        .containsEntry(FileTableOptions.LOCATION, "/data/orders/*.csv")
        .containsEntry(FileTableOptions.FORMAT, "csv")
        .containsEntry(FileTableOptions.CSV_DELIMITER, "\t")
        .containsEntry(FileTableOptions.CSV_HEADER, "false")
        .containsEntry(FileTableOptions.CSV_QUOTE, "")
        .containsEntry(FileTableOptions.CSV_ESCAPE, "\\")
        .containsEntry(FileTableOptions.CSV_NULL_STRING, "NA")
        .containsKey(FileTableOptions.SCHEMA);
    assertThat(FileTableOptions.decode(options)).contains(spec);
  }

  @Test
  void parquetCarriesNoCsvOptions() {
    FileTableSpec spec = FileTableSpec.of("/data/lineitem").withFormat(FileFormat.PARQUET);

    Map<String, String> options = spec.toOptions();

    assertThat(options)
        .containsOnlyKeys(
            FileTableOptions.CONNECTOR, FileTableOptions.LOCATION, FileTableOptions.FORMAT)
        .containsEntry(FileTableOptions.FORMAT, "parquet");
    assertThat(FileTableOptions.decode(options)).contains(spec);
    assertThat(FileTableOptions.decode(FileTableSpec.of("/x.arrow").toOptions()).orElseThrow())
        .isEqualTo(FileTableSpec.of("/x.arrow"));
  }

  @Test
  void otherConnectorsAreNotFileTables() {
    assertThat(FileTableOptions.decode(Map.of())).isEmpty();
    assertThat(FileTableOptions.decode(Map.of("connector", "kafka"))).isEmpty();
    assertThat(FileTableOptions.isFileTable(Map.of("connector", "file"))).isTrue();
  }

  @Test
  void malformedOptionsSayWhatIsWrong() {
    assertThatThrownBy(() -> FileTableOptions.decode(Map.of("connector", "file")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("location");
    Map<String, String> options = new HashMap<>(FileTableSpec.of("/t.csv").toOptions());
    options.put(FileTableOptions.CSV_DELIMITER, ";;");
    assertThatThrownBy(() -> FileTableOptions.decode(options))
        .hasMessageContaining("csv.delimiter must be one character");
    options.put(FileTableOptions.CSV_DELIMITER, ";");
    options.put(FileTableOptions.FORMAT, "orc");
    assertThatThrownBy(() -> FileTableOptions.decode(options))
        .hasMessageContaining("unknown file format 'orc'");
  }
}
