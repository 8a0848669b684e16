package dev.quiver.plan.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

class AggregateCallTest {
  private static final ArrowType INT32 = new ArrowType.Int(32, true);
  private static final ArrowType INT64 = new ArrowType.Int(64, true);
  private static final ArrowType FLOAT32 =
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  private static final ArrowType FLOAT64 =
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  private static final ArrowType DEC15_2 = new ArrowType.Decimal(15, 2, 128);

  @Test
  void printsInOneLine() {
    assertThat(AggregateCall.of(AggregateFunction.SUM, 4, INT32, "s")).hasToString("sum(#4)");
    assertThat(AggregateCall.countStar("n")).hasToString("count(*)");
    assertThat(new AggregateCall(AggregateFunction.COUNT, 2, INT32, true, "d"))
        .hasToString("count(DISTINCT #2)")
        .extracting(AggregateCall::function)
        .isEqualTo(AggregateFunction.COUNT_DISTINCT);
    assertThat(new AggregateCall(AggregateFunction.MAX, 1, INT32, true, "m"))
        .hasToString("max(#1)");
    assertThat(AggregateCall.countStar("n").withFilter(3)).hasToString("count(*) FILTER #3");
    assertThat(AggregateCall.of(AggregateFunction.STDDEV_SAMP, 1, INT32, "s"))
        .hasToString("stddev_samp(#1)")
        .extracting(AggregateCall::resultType)
        .isEqualTo(FLOAT64);
  }

  @Test
  void filterAndVarianceStatesSurviveSerialization() throws Exception {
    AggregateCall call = AggregateCall.of(AggregateFunction.VAR_POP, 2, DEC15_2, "v").withFilter(5);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(call);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(call).isNotEqualTo(call.withFilter(4));
    }
    assertThat(AggregateCall.stateFields(call))
        .extracting(Field::getName)
        .containsExactly("v$count", "v$mean", "v$m2");
  }

  @Test
  void resultTypesFollowSqlRules() {
    assertThat(type(AggregateFunction.SUM, new ArrowType.Int(8, true))).isEqualTo(INT64);
    assertThat(type(AggregateFunction.SUM, DEC15_2)).isEqualTo(new ArrowType.Decimal(38, 2, 128));
    assertThat(type(AggregateFunction.SUM, FLOAT32)).isEqualTo(FLOAT64);
    assertThat(type(AggregateFunction.AVG, INT32)).isEqualTo(FLOAT64);
    assertThat(type(AggregateFunction.AVG, DEC15_2)).isEqualTo(new ArrowType.Decimal(38, 6, 128));
    assertThat(type(AggregateFunction.AVG, new ArrowType.Decimal(20, 9, 128)))
        .isEqualTo(new ArrowType.Decimal(38, 9, 128));
    assertThat(type(AggregateFunction.MIN, ArrowType.Utf8.INSTANCE))
        .isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(type(AggregateFunction.COUNT_DISTINCT, ArrowType.Utf8.INSTANCE)).isEqualTo(INT64);
    Field count = AggregateCall.countStar("n").resultField();
    assertThat(count.isNullable()).isFalse();
    assertThat(
            AggregateCall.of(AggregateFunction.MAX, 0, new ArrowType.Date(DateUnit.DAY), "d")
                .resultField()
                .isNullable())
        .isTrue();
  }

  @Test
  void rejectsArgumentsTheFunctionCannotTake() {
    assertThatThrownBy(
            () -> AggregateCall.of(AggregateFunction.SUM, 3, ArrowType.Utf8.INSTANCE, "s"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("sum(#3) does not accept")
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.UNSUPPORTED_TYPE);
    assertThatThrownBy(() -> new AggregateCall(AggregateFunction.COUNT_STAR, 1, INT32, false, "n"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void stateFieldsOfEachFunction() {
    assertThat(AggregateCall.stateFields(AggregateCall.of(AggregateFunction.AVG, 1, DEC15_2, "a")))
        .containsExactly(
            Field.nullable("a$sum", new ArrowType.Decimal(38, 2, 128)),
            new Field("a$count", FieldType.notNullable(INT64), null));
    assertThat(AggregateCall.stateFields(AggregateCall.of(AggregateFunction.AVG, 1, INT32, "a")))
        .extracting(Field::getType)
        .containsExactly(INT64, INT64);
    assertThat(AggregateCall.stateFields(AggregateCall.of(AggregateFunction.MIN, 1, FLOAT32, "m")))
        .containsExactly(Field.nullable("m$min", FLOAT32));
    assertThat(AggregateCall.stateFields(AggregateCall.countStar("n")))
        .containsExactly(new Field("n$count", FieldType.notNullable(INT64), null));
    AggregateCall distinct = new AggregateCall(AggregateFunction.SUM, 1, INT32, true, "d");
    assertThat(distinct.hasPartialState()).isFalse();
    assertThatThrownBy(() -> AggregateCall.stateFields(distinct))
        .hasMessageContaining("sum(DISTINCT #1) has no mergeable partial state");
  }

  @Test
  void serializesWithItsArrowType() throws Exception {
    for (AggregateCall call :
        List.of(
            AggregateCall.countStar("n"),
            AggregateCall.of(AggregateFunction.AVG, 7, DEC15_2, "avg_price"),
            new AggregateCall(AggregateFunction.COUNT, 2, ArrowType.Utf8.INSTANCE, true, "d"))) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(call);
      }
      try (ObjectInputStream in =
          new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        AggregateCall copy = (AggregateCall) in.readObject();
        assertThat(copy).isEqualTo(call).hasToString(call.toString());
        assertThat(copy.resultType()).isEqualTo(call.resultType());
      }
    }
  }

  private static ArrowType type(AggregateFunction function, ArrowType argument) {
    return AggregateCall.of(function, 0, argument, "x").resultType();
  }
}
