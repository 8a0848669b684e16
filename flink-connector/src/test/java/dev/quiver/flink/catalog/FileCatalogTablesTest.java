package dev.quiver.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.CatalogTable;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** File tables as the SQL planner sees them, one by one and a directory at a time. */
@ExtendWith(ArrowLeakCheck.class)
class FileCatalogTablesTest {
  @TempDir Path dir;

  @Test
  void parquetFolderIsOneTableWithOneUnitPerFile(BufferAllocator allocator) throws Exception {
    Path orders = OrdersFiles.writeParquet(dir.resolve("orders"), 3, 100, allocator);

    CatalogTable table = FileCatalogTables.open("orders", FileTableSpec.of(orders.toString()));

    assertThat(table.name()).isEqualTo("orders");
    assertThat(table.schema()).isEqualTo(RowSchema.fromArrow(OrdersFiles.SCHEMA));
    assertThat(table.rowCount()).isEqualTo(300);
    assertThat(table.units()).hasSize(3).extracting(SplitUnit::rows).containsOnly(100L);
    assertThat(table.units())
        .extracting(SplitUnit::path)
        .containsExactly(
            orders.resolve("part-0.parquet").toString(),
            orders.resolve("part-1.parquet").toString(),
            orders.resolve("part-2.parquet").toString());
    assertThat(table.bytes()).isEqualTo(sizeOf(orders));
    // The detected format is written down, so that a scan reopens the table the same way.
    assertThat(FileTableOptions.decode(table.options()))
        .contains(FileTableSpec.of(orders.toString()).withFormat(FileFormat.PARQUET));
  }

  @Test
  void csvWithDeclaredSchemaKeepsItsTypesAndOptions(BufferAllocator allocator) {
    Path file = dir.resolve("orders.csv");
    OrdersFiles.write(file, FileFormat.CSV, OrdersFiles.rows(0, 50), allocator);
    FileTableSpec spec =
        FileTableSpec.of(file.toString())
            .withSchema(OrdersFiles.SCHEMA)
            .withCsv(CsvOptions.DEFAULT);

    CatalogTable table = FileCatalogTables.open("orders", spec);

    assertThat(table.schema()).isEqualTo(RowSchema.fromArrow(OrdersFiles.SCHEMA));
    assertThat(table.rowCount()).isEqualTo(50); // estimated from line lengths: exact for one block
    assertThat(table.units()).singleElement().extracting(SplitUnit::rows).isEqualTo(-1L);
    assertThat(FileTableOptions.decode(table.options())).contains(spec.withFormat(FileFormat.CSV));
  }

  @Test
  void columnsOfTypesQuiverCannotQueryAreLeftOut(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("id", new ArrowType.Int(64, true)),
                Field.nullable("blob", ArrowType.Binary.INSTANCE)));
    Path file = dir.resolve("blobs.arrow");
    try (BatchFileWriter writer =
            BatchFileWriter.open(file, FileFormat.ARROW_IPC, schema, allocator);
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      ((BigIntVector) batch.getVector(0)).setSafe(0, 7);
      ((VarBinaryVector) batch.getVector(1)).setSafe(0, new byte[] {1, 2});
      batch.setRowCount(1);
      writer.write(batch);
      writer.commit();
    }

    CatalogTable table = FileCatalogTables.open("blobs", FileTableSpec.of(file.toString()));

    assertThat(table.schema()).isEqualTo(RowSchema.of(Column.of("id", SqlType.BIGINT)));
  }

  @Test
  void directoryEntriesBecomeTablesNamedAfterThem(BufferAllocator allocator) throws Exception {
    OrdersFiles.writeParquet(dir.resolve("orders"), 2, 10, allocator);
    OrdersFiles.write(dir.resolve("nation.csv"), FileFormat.CSV, OrdersFiles.rows(0, 5), allocator);
    OrdersFiles.write(
        dir.resolve("region.arrow"), FileFormat.ARROW_IPC, OrdersFiles.rows(0, 3), allocator);
    Files.writeString(dir.resolve("README.md"), "not a table");
    Files.writeString(dir.resolve("_SUCCESS"), "");
    Files.createDirectories(dir.resolve("empty"));
    Files.createDirectories(dir.resolve(".hidden"));
    OrdersFiles.write(
        dir.resolve(".hidden/x.parquet"), FileFormat.PARQUET, OrdersFiles.rows(0, 1), allocator);

    List<CatalogTable> tables = DirectoryTables.open(dir, CsvOptions.DEFAULT);

    assertThat(tables).extracting(CatalogTable::name).containsExactly("nation", "orders", "region");
    assertThat(tables).extracting(CatalogTable::rowCount).containsExactly(5L, 20L, 3L);
    assertThat(tables)
        .extracting(t -> t.options().get(FileTableOptions.FORMAT))
        .containsExactly("csv", "parquet", "arrow_ipc");
  }

  @Test
  void directoryErrorsNameThePath(BufferAllocator allocator) {
    assertThatThrownBy(() -> DirectoryTables.open(dir.resolve("nope"), CsvOptions.DEFAULT))
        .isInstanceOf(QuiverException.class)
        .matches(e -> ((QuiverException) e).code() == ErrorCode.FILE_NOT_FOUND)
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> DirectoryTables.open(dir, CsvOptions.DEFAULT))
        .matches(e -> ((QuiverException) e).code() == ErrorCode.FILE_NOT_FOUND)
        .hasMessageContaining("holds no tables");

    OrdersFiles.write(dir.resolve("t.csv"), FileFormat.CSV, OrdersFiles.rows(0, 2), allocator);
    OrdersFiles.write(
        dir.resolve("T.parquet"), FileFormat.PARQUET, OrdersFiles.rows(0, 2), allocator);
    assertThatThrownBy(() -> DirectoryTables.open(dir, CsvOptions.DEFAULT))
        .matches(e -> ((QuiverException) e).code() == ErrorCode.INVALID_ARGUMENT)
        .hasMessageContaining("two tables named")
        .hasMessageContaining("T.parquet")
        .hasMessageContaining("t.csv");
    assertThatThrownBy(() -> DirectoryTables.open(dir.resolve("t.csv"), CsvOptions.DEFAULT))
        .hasMessageContaining("is a file, not a directory");
  }

  @Test
  void missingLocationIsReported() {
    assertThatThrownBy(
            () -> FileCatalogTables.open("t", FileTableSpec.of(dir.resolve("gone").toString())))
        .isInstanceOf(QuiverException.class)
        .matches(e -> ((QuiverException) e).code() == ErrorCode.FILE_NOT_FOUND)
        .hasMessageContaining("gone")
        .hasMessageContaining("does not exist");
  }

  private static long sizeOf(Path directory) throws Exception {
    try (var files = Files.list(directory)) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
