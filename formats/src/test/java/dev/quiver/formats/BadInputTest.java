package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Bad input ends in a QuiverException that names the file and says what is wrong. */
@ExtendWith(ArrowLeakCheck.class)
class BadInputTest {
  private static final Schema ABC =
      new Schema(
          List.of(
              Field.nullable("a", new ArrowType.Int(64, true)),
              Field.nullable("b", ArrowType.Utf8.INSTANCE),
              Field.nullable("c", new ArrowType.Decimal(15, 2, 128))));

  @TempDir Path dir;

  @Test
  void missingPath() {
    String missing = dir.resolve("missing.parquet").toString();
    assertFails(() -> open(missing, Optional.empty()), ErrorCode.FILE_NOT_FOUND)
        .hasMessageContaining(missing);
  }

  @Test
  void emptyDirectory() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertFails(() -> open(empty.toString(), Optional.empty()), ErrorCode.FILE_NOT_FOUND)
        .hasMessageContaining(empty.toString());
  }

  @Test
  void truncatedParquet(BufferAllocator allocator) throws IOException {
    Path good = parquet("good.parquet", allocator);
    byte[] bytes = Files.readAllBytes(good);
    Path truncated =
        Files.write(dir.resolve("truncated.parquet"), Arrays.copyOf(bytes, bytes.length / 2));

    assertFails(() -> open(truncated.toString(), Optional.empty()), ErrorCode.INVALID_FILE)
        .hasMessageContaining(truncated.toString())
        .hasMessageContaining("magic");
    assertFails(() -> ParquetFooter.read(truncated), ErrorCode.INVALID_FILE)
        .hasMessageContaining(truncated.toString());
  }

  @Test
  void garbageParquet() throws IOException {
    Path garbage =
        Files.writeString(dir.resolve("garbage.parquet"), "PAR1 this is not a parquet file PAR1");
    Path empty = Files.write(dir.resolve("empty.parquet"), new byte[0]);

    assertFails(() -> open(garbage.toString(), Optional.empty()), ErrorCode.INVALID_FILE)
        .hasMessageContaining(garbage.toString());
    assertFails(() -> ParquetFooter.read(garbage), ErrorCode.INVALID_FILE);
    assertFails(() -> open(empty.toString(), Optional.empty()), ErrorCode.INVALID_FILE)
        .hasMessageContaining(empty.toString());
  }

  @Test
  void corruptParquetPagesFailWhileReading(BufferAllocator allocator) throws IOException {
    Path file = parquet("pages.parquet", allocator);
    byte[] bytes = Files.readAllBytes(file);
    Arrays.fill(bytes, 4, bytes.length / 2, (byte) 0x7F); // the data; the footer stays intact
    Files.write(file, bytes);
    FileTable table = open(file.toString(), Optional.empty());

    assertFails(
            () ->
                TestFiles.read(
                    table, table.scan(List.of("i64", "utf8"), Optional.empty()), allocator),
            ErrorCode.INVALID_FILE)
        .hasMessageContaining(file.toString());
  }

  @Test
  void csvRowWithTooFewFields(BufferAllocator allocator) throws IOException {
    Path csv = csv("few.csv", "a,b,c\n1,x,1.5\n2,y,3\n3,z\n4,w,5\n");
    assertCsvFails(csv, Optional.of(ABC), allocator)
        .hasMessageContaining(csv + ", line 4")
        .hasMessageContaining("Expected 3 columns, got 2");
  }

  @Test
  void csvRowWithTooManyFields(BufferAllocator allocator) throws IOException {
    Path csv = csv("many.csv", "a,b,c\n1,x,1.5\n2,y,3,4\n");
    assertCsvFails(csv, Optional.of(ABC), allocator)
        .hasMessageContaining(csv + ", line 3")
        .hasMessageContaining("Expected 3 columns, got 4");
  }

  @Test
  void csvUnparsableNumber(BufferAllocator allocator) throws IOException {
    Path csv = csv("number.csv", "a,b,c\n1,x,1.5\n2,y,3\nabc,z,4\n");
    assertCsvFails(csv, Optional.of(ABC), allocator)
        .hasMessageContaining(csv + ", line 4, column 1 (a)")
        .hasMessageContaining("invalid value 'abc'");
    Path decimal = csv("decimal.csv", "a,b,c\n1,x,1.5\n2,y,3.x\n");
    assertCsvFails(decimal, Optional.of(ABC), allocator)
        .hasMessageContaining(decimal + ", line 3, column 3 (c)")
        .hasMessageContaining("'3.x'");
  }

  @Test
  void csvErrorFarIntoALargeFileStillNamesItsLine(BufferAllocator allocator) throws IOException {
    StringBuilder text = new StringBuilder("a,b,c\n");
    for (int i = 0; i < 200_000; i++) {
      text.append(i).append(",x,").append(i).append(".5\n");
    }
    text.append("12,z\n");
    Path csv = csv("large.csv", text.toString());
    assertCsvFails(csv, Optional.of(ABC), allocator).hasMessageContaining(csv + ", line 200002");
  }

  @Test
  void incompatibleSchemasAcrossFilesOfOneTable(BufferAllocator allocator) throws IOException {
    Path table = Files.createDirectories(dir.resolve("t"));
    Schema one = new Schema(List.of(RandomBatches.field("k", new ArrowType.Int(64, true))));
    Schema two = new Schema(List.of(RandomBatches.field("k", ArrowType.Utf8.INSTANCE)));
    TestFiles.write(
        table.resolve("part-0.parquet"),
        FileFormat.PARQUET,
        one,
        List.of(new RandomBatches(1).batch(one, 10, allocator)),
        allocator);
    TestFiles.write(
        table.resolve("part-1.parquet"),
        FileFormat.PARQUET,
        two,
        List.of(new RandomBatches(1).batch(two, 10, allocator)),
        allocator);

    assertFails(() -> open(table.toString(), Optional.empty()), ErrorCode.SCHEMA_MISMATCH)
        .hasMessageContaining(table.resolve("part-1.parquet").toString())
        .hasMessageContaining(table.resolve("part-0.parquet").toString())
        .hasMessageContaining("column 'k'");

    Path other = Files.createDirectories(dir.resolve("names"));
    Files.writeString(other.resolve("a.csv"), "x,y\n1,2\n");
    Files.writeString(other.resolve("b.csv"), "x,z\n1,2\n");
    assertFails(() -> open(other.toString(), Optional.empty()), ErrorCode.SCHEMA_MISMATCH)
        .hasMessageContaining("'y' vs 'z'");
  }

  @Test
  void declaredSchemaMustMatchEveryFile() throws IOException {
    Path csv = csv("abd.csv", "a,b,d\n1,x,1.5\n");
    assertFails(() -> open(csv.toString(), Optional.of(ABC)), ErrorCode.SCHEMA_MISMATCH)
        .hasMessageContaining(csv.toString())
        .hasMessageContaining("no column 'c'");
  }

  @Test
  void declaredTypeTheFileCannotBeConvertedTo(BufferAllocator allocator) {
    Path file = parquet("typed.parquet", allocator);
    Schema wrong = new Schema(List.of(Field.nullable("utf8", new ArrowType.Int(32, true))));
    FileTable table = open(file.toString(), Optional.of(wrong));

    assertFails(
            () -> TestFiles.read(table, table.scan(List.of("utf8"), Optional.empty()), allocator),
            ErrorCode.SCHEMA_MISMATCH)
        .hasMessageContaining(file.toString());
  }

  @Test
  void unsupportedColumnTypesFailOnlyWhenRead(BufferAllocator allocator) throws IOException {
    Path csv = csv("ok.csv", "a,b,c\n1,x,1.5\n");
    FileTable table = open(csv.toString(), Optional.empty());
    assertThatThrownBy(() -> table.scan(List.of("nope"), Optional.empty()).outputSchema())
        .hasMessageContaining("no column 'nope'");
    assertThat(TestFiles.read(table, table.scan(List.of("a"), Optional.empty()), allocator))
        .hasSize(1);
  }

  private AbstractThrowableAssert<?, ? extends Throwable> assertCsvFails(
      Path csv, Optional<Schema> schema, BufferAllocator allocator) {
    return assertFails(
        () -> {
          FileTable table = open(csv.toString(), schema);
          TestFiles.read(
              table, table.scan(TestFiles.names(table.schema()), Optional.empty()), allocator);
        },
        ErrorCode.MALFORMED_ROW);
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertFails(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
    return assertThatThrownBy(call)
        .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  private static FileTable open(String location, Optional<Schema> schema) {
    return FileTable.open(location, Optional.empty(), CsvOptions.DEFAULT, schema);
  }

  private Path csv(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private Path parquet(String name, BufferAllocator allocator) {
    Path file = dir.resolve(name);
    Schema schema = RandomBatches.ALL_TYPES;
    TestFiles.write(
        file,
        FileFormat.PARQUET,
        schema,
        List.of(new RandomBatches(5).batch(schema, 5000, allocator)),
        allocator);
    return file;
  }
}
