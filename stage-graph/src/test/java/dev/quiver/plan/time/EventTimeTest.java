package dev.quiver.plan.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class EventTimeTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
              Field.nullable("millis", new ArrowType.Int(64, true))));

  @Test
  void printsAsTheSqlDeclaration() {
    assertThat(new EventTime("ts", Duration.ofSeconds(5)))
        .hasToString("WATERMARK FOR ts AS ts - INTERVAL '5' SECOND");
    assertThat(new EventTime("ts", Duration.ofMillis(250)))
        .hasToString("WATERMARK FOR ts AS ts - INTERVAL '0.25' SECOND");
  }

  @Test
  void theColumnIsATimestampOrBigintMillis() {
    assertThat(new EventTime("ts", Duration.ZERO).columnIndex(SCHEMA)).isEqualTo(1);
    assertThat(new EventTime("millis", Duration.ZERO).columnIndex(SCHEMA)).isEqualTo(2);
    assertThat(new EventTime("millis", Duration.ZERO).unit(SCHEMA.getFields().get(2)))
        .isEqualTo(EventTime.Unit.EPOCH_MILLIS);
    assertThatThrownBy(() -> new EventTime("name", Duration.ZERO).columnIndex(SCHEMA))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_QUERY))
        .hasMessageContaining("must be a TIMESTAMP or a BIGINT");
    assertThatThrownBy(() -> new EventTime("t", Duration.ZERO).columnIndex(SCHEMA))
        .hasMessageContaining("'t' is not a column of [name, ts, millis]");
    assertThatThrownBy(() -> new EventTime("ts", Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
