package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableLocationsTest {
  @TempDir Path dir;

  @Test
  void singleFileTakesItsFormatFromTheExtension() throws IOException {
    Path file = touch("a.feather");

    TableFiles table = TableLocations.resolve(file.toString(), Optional.empty());

    assertThat(table.format()).isEqualTo(FileFormat.ARROW_IPC);
    assertThat(paths(table)).containsExactly(file.toString());
    assertThat(table.files().get(0).bytes()).isEqualTo(3);
  }

  @Test
  void fileUrisAreAccepted() throws IOException {
    Path file = touch("a.parquet");
    assertThat(paths(TableLocations.resolve(file.toUri().toString(), Optional.empty())))
        .containsExactly(file.toString());
  }

  @Test
  void directoryListsItsFilesOfTheFormatSortedAndSkipsHiddenOnes() throws IOException {
    Path b = touch("t/part-00001.parquet");
    Path a = touch("t/part-00000.parquet");
    touch("t/_SUCCESS");
    touch("t/.part-00002.parquet.tmp-1/part-0.parquet");
    touch("t/.hidden.parquet");
    touch("t/_metadata.parquet");
    touch("t/notes.txt");
    touch("t/sub/part-00003.parquet");

    TableFiles table = TableLocations.resolve(dir.resolve("t").toString(), Optional.empty());

    assertThat(table.format()).isEqualTo(FileFormat.PARQUET);
    assertThat(paths(table)).containsExactly(a.toString(), b.toString());
  }

  @Test
  void givenFormatSelectsAmongMixedFiles() throws IOException {
    Path csv = touch("m/x.csv");
    touch("m/y.parquet");

    assertThat(
            paths(TableLocations.resolve(dir.resolve("m").toString(), Optional.of(FileFormat.CSV))))
        .containsExactly(csv.toString());
    assertThatThrownBy(() -> TableLocations.resolve(dir.resolve("m").toString(), Optional.empty()))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("mixes file formats")
        .hasMessageContaining(dir.resolve("m").toString());
  }

  @Test
  void globsMatchFilesAcrossDirectories() throws IOException {
    Path a = touch("g/2024/a.csv");
    Path b = touch("g/2025/b.csv");
    touch("g/2025/c.parquet");
    touch("g/_tmp/d.csv");

    assertThat(paths(TableLocations.resolve(dir + "/g/*/*.csv", Optional.empty())))
        .containsExactly(a.toString(), b.toString());
    assertThat(paths(TableLocations.resolve(dir + "/g/**.csv", Optional.empty())))
        .containsExactly(a.toString(), b.toString());
    assertThat(paths(TableLocations.resolve(dir + "/g/2025/b.cs?", Optional.empty())))
        .containsExactly(b.toString());
  }

  @Test
  void missingPathIsFileNotFoundNamingThePath() {
    String missing = dir.resolve("nope").toString();
    assertThatThrownBy(() -> TableLocations.resolve(missing, Optional.empty()))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_NOT_FOUND))
        .hasMessageContaining(missing);
    assertThatThrownBy(() -> TableLocations.resolve(missing + "/*.csv", Optional.empty()))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_NOT_FOUND));
    assertThatThrownBy(() -> TableLocations.resolve(dir + "/*.csv", Optional.empty()))
        .hasMessageContaining("matches no files");
  }

  @Test
  void emptyDirectoryIsFileNotFoundNamingThePath() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    touch("empty/_SUCCESS");

    assertThatThrownBy(() -> TableLocations.resolve(empty.toString(), Optional.empty()))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_NOT_FOUND))
        .hasMessageContaining(empty.toString());
    assertThatThrownBy(
            () -> TableLocations.resolve(empty.toString(), Optional.of(FileFormat.PARQUET)))
        .hasMessageContaining("holds no PARQUET files");
  }

  @Test
  void fileWithoutKnownExtensionNeedsAFormat() throws IOException {
    Path file = touch("data.txt");
    assertThatThrownBy(() -> TableLocations.resolve(file.toString(), Optional.empty()))
        .hasMessageContaining("Cannot tell the format");
    assertThat(TableLocations.resolve(file.toString(), Optional.of(FileFormat.CSV)).format())
        .isEqualTo(FileFormat.CSV);
  }

  @Test
  void formatsByNameAndExtension() {
    assertThat(FileFormat.fromFileName("X.PARQUET")).contains(FileFormat.PARQUET);
    assertThat(FileFormat.fromFileName("x.ipc")).contains(FileFormat.ARROW_IPC);
    assertThat(FileFormat.fromFileName("x.arrow")).contains(FileFormat.ARROW_IPC);
    assertThat(FileFormat.fromFileName(".csv")).isEmpty();
    assertThat(FileFormat.fromName("arrow")).isEqualTo(FileFormat.ARROW_IPC);
    assertThatThrownBy(() -> FileFormat.fromName("orc")).hasMessageContaining("orc");
  }

  private Path touch(String name) throws IOException {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, "abc");
  }

  private static List<String> paths(TableFiles table) {
    return table.files().stream().map(DataFile::path).toList();
  }
}
