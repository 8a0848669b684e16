package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Large, dictionary-encoded and other non-Quiver types in files are read as Quiver's types. */
@ExtendWith(ArrowLeakCheck.class)
class TypeNormalizationTest {
  @TempDir Path dir;

  @Test
  void ipcFileWithDictionaryLargeStringsAndOtherUnitsReadsAsQuiverTypes(BufferAllocator allocator)
      throws IOException {
    Path file = dir.resolve("types.arrow");
    writeFile(file, allocator);

    FileTable table =
        FileTable.open(file.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());

    assertThat(table.schema().getFields())
        .extracting(f -> f.getType())
        .containsExactly(
            ArrowType.Utf8.INSTANCE,
            ArrowType.Utf8.INSTANCE,
            new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
            new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
            new ArrowType.Int(32, true));
    assertThat(table.schema().getFields()).allSatisfy(f -> assertThat(f.getDictionary()).isNull());
    List<List<Object>> rows =
        TestFiles.read(
            table, table.scan(TestFiles.names(table.schema()), Optional.empty()), allocator);
    LocalDateTime epoch = LocalDateTime.of(1970, 1, 1, 0, 0);
    assertThat(rows)
        .containsExactly(
            Arrays.asList("bb", "x", epoch.plusNanos(1000), epoch.plusNanos(1_000_000), 1),
            Arrays.asList("aa", "yy", epoch.plusNanos(2000), epoch.plusNanos(2_000_000), 65535),
            Arrays.asList(null, "zzz", epoch.plusNanos(3000), epoch.plusNanos(3_000_000), null));
  }

  private static void writeFile(Path file, BufferAllocator allocator) throws IOException {
    DictionaryEncoding encoding = new DictionaryEncoding(1L, false, new ArrowType.Int(32, true));
    try (VarCharVector values = new VarCharVector("values", allocator);
        IntVector indices =
            new IntVector(
                "dict", new FieldType(true, new ArrowType.Int(32, true), encoding), allocator);
        LargeVarCharVector large = new LargeVarCharVector("large", allocator);
        TimeStampNanoVector nanos =
            new TimeStampNanoVector(
                "nanos",
                FieldType.nullable(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
                allocator);
        TimeStampMilliTZVector millis =
            new TimeStampMilliTZVector(
                "millis",
                FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
                allocator);
        UInt2Vector unsigned = new UInt2Vector("unsigned", allocator)) {
      values.allocateNew();
      values.setSafe(0, bytes("aa"));
      values.setSafe(1, bytes("bb"));
      values.setValueCount(2);
      indices.allocateNew(3);
      indices.set(0, 1);
      indices.set(1, 0);
      indices.setNull(2);
      large.allocateNew();
      unsigned.allocateNew(3);
      nanos.allocateNew(3);
      millis.allocateNew(3);
      String[] strings = {"x", "yy", "zzz"};
      for (int i = 0; i < 3; i++) {
        large.setSafe(i, bytes(strings[i]));
        nanos.set(i, 1000L * (i + 1));
        millis.set(i, i + 1);
      }
      unsigned.set(0, 1);
      unsigned.set(1, 65535);
      unsigned.setNull(2);
      for (var v : List.of(indices, large, nanos, millis, unsigned)) {
        v.setValueCount(3);
      }
      DictionaryProvider.MapDictionaryProvider provider =
          new DictionaryProvider.MapDictionaryProvider(new Dictionary(values, encoding));
      VectorSchemaRoot root =
          new VectorSchemaRoot(
              List.of(
                  indices.getField(),
                  large.getField(),
                  nanos.getField(),
                  millis.getField(),
                  unsigned.getField()),
              List.of(indices, large, nanos, millis, unsigned),
              3);
      try (FileOutputStream out = new FileOutputStream(file.toFile());
          ArrowFileWriter writer = new ArrowFileWriter(root, provider, out.getChannel())) {
        writer.start();
        writer.writeBatch();
        writer.end();
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
