package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(ArrowLeakCheck.class)
class CsvOptionsTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(32, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              Field.nullable("price", new ArrowType.Decimal(15, 2, 128)),
              Field.nullable("day", new ArrowType.Date(DateUnit.DAY))));

  @TempDir Path dir;

  @Test
  void delimiterQuoteEscapeAndNullString(BufferAllocator allocator) throws IOException {
    Path csv =
        Files.writeString(
            dir.resolve("t.csv"),
            "id|name|price|day\n1|'a|b'|1.50|2024-02-29\n2|it\\'s|NA|NA\n3|''|0|1970-01-01\n");
    CsvOptions options =
        CsvOptions.DEFAULT
            .withDelimiter('|')
            .withQuote(Optional.of('\''))
            .withEscape(Optional.of('\\'))
            .withNullString("NA");

    FileTable table =
        FileTable.open(csv.toString(), Optional.empty(), options, Optional.of(SCHEMA));
    List<List<Object>> rows =
        TestFiles.read(table, table.scan(TestFiles.names(SCHEMA), Optional.empty()), allocator);

    assertThat(rows)
        .containsExactly(
            Arrays.asList(1, "a|b", new BigDecimal("1.50"), 19_782),
            Arrays.asList(2, "it's", null, null),
            Arrays.asList(3, "", new BigDecimal("0.00"), 0));
  }

  @Test
  void headerlessFileTakesTheDeclaredNamesByPosition(BufferAllocator allocator) throws IOException {
    Path csv = Files.writeString(dir.resolve("h.csv"), "7,x,2.25,2000-01-01\n8,,3,\n");
    CsvOptions options = CsvOptions.DEFAULT.withHeader(false);

    FileTable table =
        FileTable.open(csv.toString(), Optional.empty(), options, Optional.of(SCHEMA));
    List<List<Object>> rows =
        TestFiles.read(table, table.scan(List.of("price", "id"), Optional.empty()), allocator);

    assertThat(table.schema()).isEqualTo(SCHEMA);
    assertThat(rows)
        .containsExactly(List.of(new BigDecimal("2.25"), 7), List.of(new BigDecimal("3.00"), 8));
  }

  @Test
  void headerlessFileWithoutSchemaGetsGeneratedNamesAndInferredTypes(BufferAllocator allocator)
      throws IOException {
    Path csv = Files.writeString(dir.resolve("g.csv"), "1,x,2.5\n2,y,3\n");
    FileTable table =
        FileTable.open(
            csv.toString(),
            Optional.empty(),
            CsvOptions.DEFAULT.withHeader(false),
            Optional.empty());

    assertThat(TestFiles.names(table.schema())).containsExactly("f0", "f1", "f2");
    assertThat(table.schema().getFields().get(0).getType()).isEqualTo(new ArrowType.Int(64, true));
    assertThat(table.schema().getFields().get(2).getType())
        .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    assertThat(TestFiles.read(table, table.scan(List.of("f1"), Optional.empty()), allocator))
        .containsExactly(List.of("x"), List.of("y"));
  }

  @Test
  void inferredTypesOfSeveralFilesAreReconciled(BufferAllocator allocator) throws IOException {
    Path t = Files.createDirectories(dir.resolve("t"));
    Files.writeString(t.resolve("a.csv"), "k,v,n\n1,2,\n");
    Files.writeString(t.resolve("b.csv"), "k,v,n\n2,2.5,x\n");

    FileTable table =
        FileTable.open(t.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());

    assertThat(table.schema().getFields().get(1).getType())
        .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    assertThat(table.schema().getFields().get(2).getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(TestFiles.read(table, table.scan(List.of("v", "n"), Optional.empty()), allocator))
        .containsExactly(Arrays.asList(2.0, null), Arrays.asList(2.5, "x"));
  }
}
