package dev.quiver.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.testing.RandomBatches;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** Arrow ↔ Flink logical types, both ways and exactly. */
class FlinkTypesTest {
  @Test
  void everyQuiverTypeMapsToFlinkAndBack() {
    Schema schema = RandomBatches.ALL_TYPES;
    RowType flink = FlinkTypes.toFlink(schema);
    assertThat(flink.asSummaryString())
        .isEqualTo(
            "ROW<`bool` BOOLEAN, `i8` TINYINT, `i16` SMALLINT, `i32` INT, `i64` BIGINT,"
                + " `f32` FLOAT, `f64` DOUBLE, `dec15_2` DECIMAL(15, 2),"
                + " `dec38_10` DECIMAL(38, 10), `utf8` STRING, `date` DATE,"
                + " `ts_us` TIMESTAMP(6)> NOT NULL");
    assertThat(FlinkTypes.toArrow(flink)).isEqualTo(schema);
  }

  @Test
  void nullabilityIsKept() {
    Field id = Field.notNullable("id", new ArrowType.Int(64, true));
    LogicalType type = FlinkTypes.toFlink(id);
    assertThat(type.isNullable()).isFalse();
    assertThat(FlinkTypes.toArrow("id", type)).isEqualTo(id);
    assertThat(FlinkTypes.toArrow("s", DataTypes.STRING().getLogicalType()).isNullable()).isTrue();
  }

  @Test
  void flinkOnlyVariantsWidenWithoutLoss() {
    assertThat(arrow(DataTypes.VARCHAR(10))).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(arrow(DataTypes.CHAR(3))).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(arrow(DataTypes.TIMESTAMP(3)))
        .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
    assertThat(arrow(DataTypes.TIMESTAMP(9)))
        .isEqualTo(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null));
    assertThat(flink(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)))
        .isEqualTo("TIMESTAMP(3)");
    assertThat(flink(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null))).isEqualTo("TIMESTAMP(9)");
    assertThat(flink(new ArrowType.Date(DateUnit.MILLISECOND))).isEqualTo("DATE");
  }

  @Test
  void typesWithoutAnExactCounterpartNameTheColumn() {
    for (LogicalType type :
        List.of(
            DataTypes.BYTES().getLogicalType(),
            DataTypes.TIMESTAMP_LTZ(3).getLogicalType(),
            DataTypes.ARRAY(DataTypes.INT()).getLogicalType(),
            DataTypes.TIME().getLogicalType())) {
      assertThatThrownBy(() -> FlinkTypes.toArrow("col", type))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_TYPE))
          .hasMessageContaining("Column 'col'");
    }
    for (ArrowType type :
        List.of(
            new ArrowType.Int(32, false),
            ArrowType.Binary.INSTANCE,
            new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
            new ArrowType.Decimal(40, 2, 256))) {
      assertThatThrownBy(() -> FlinkTypes.toFlink(new Field("x", FieldType.nullable(type), null)))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("Column 'x'");
    }
  }

  private static ArrowType arrow(DataType type) {
    return FlinkTypes.toArrow("c", type.getLogicalType()).getType();
  }

  private static String flink(ArrowType type) {
    return FlinkTypes.toFlink(new Field("c", FieldType.notNullable(type), null))
        .asSummaryString()
        .replace(" NOT NULL", "");
  }
}
