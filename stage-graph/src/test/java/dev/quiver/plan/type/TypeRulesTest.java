package dev.quiver.plan.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.TypeRules.DecimalOp;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class TypeRulesTest {
  private static SqlType dec(int p, int s) {
    return SqlType.decimal(p, s);
  }

  @Test
  void aQuotientWhoseExactTypeNeedsMoreThan38DigitsIsDouble() {
    // DECIMAL(15,2) / DECIMAL(15,2) is DECIMAL(33,18): exact, it fits.
    assertThat(TypeRules.arithmetic(DecimalOp.DIVIDE, dec(15, 2), dec(15, 2)))
        .isEqualTo(dec(33, 18));
    assertThat(TypeRules.arithmetic(DecimalOp.DIVIDE, dec(15, 2), SqlType.INTEGER))
        .isEqualTo(dec(26, 13));
    // A ratio of SUMs (DECIMAL(38, s)) and a SUM over an integer would be cut to 6 decimals.
    assertThat(TypeRules.quotientFits(dec(38, 2), dec(38, 2))).isFalse();
    assertThat(TypeRules.arithmetic(DecimalOp.DIVIDE, dec(38, 2), dec(38, 2)))
        .isEqualTo(SqlType.DOUBLE);
    assertThat(TypeRules.arithmetic(DecimalOp.DIVIDE, dec(38, 2), SqlType.INTEGER))
        .isEqualTo(SqlType.DOUBLE);
    assertThat(TypeRules.arithmetic(DecimalOp.DIVIDE, SqlType.BIGINT, dec(38, 2)))
        .isEqualTo(SqlType.DOUBLE);
    // The boundary: 38 digits exactly still fits.
    assertThat(TypeRules.quotientFits(dec(19, 0), dec(18, 0))).isTrue();
    assertThat(TypeRules.quotientFits(dec(20, 0), dec(18, 0))).isFalse();
    // Other operations keep the capped decimal.
    assertThat(TypeRules.arithmetic(DecimalOp.MULTIPLY, dec(38, 2), dec(38, 2)))
        .isEqualTo(dec(38, 4));
  }

  @Test
  void decimalResultTypes() {
    assertThat(TypeRules.decimal(DecimalOp.ADD, dec(15, 2), dec(15, 2))).isEqualTo(dec(16, 2));
    assertThat(TypeRules.decimal(DecimalOp.ADD, dec(10, 0), dec(15, 2))).isEqualTo(dec(16, 2));
    assertThat(TypeRules.decimal(DecimalOp.MULTIPLY, dec(15, 2), dec(16, 2))).isEqualTo(dec(32, 4));
    assertThat(TypeRules.decimal(DecimalOp.DIVIDE, dec(15, 2), dec(15, 2))).isEqualTo(dec(33, 18));
    assertThat(TypeRules.decimal(DecimalOp.MODULO, dec(15, 2), dec(5, 3))).isEqualTo(dec(5, 3));
    // Capped at 38: the integer digits stay, the scale gives way down to min(s, 6).
    assertThat(TypeRules.decimal(DecimalOp.MULTIPLY, dec(32, 4), dec(16, 2))).isEqualTo(dec(38, 6));
    assertThat(TypeRules.decimal(DecimalOp.ADD, dec(38, 10), dec(38, 10))).isEqualTo(dec(38, 9));
    assertThat(TypeRules.decimal(DecimalOp.DIVIDE, dec(38, 10), dec(38, 10))).isEqualTo(dec(38, 6));
    assertThat(TypeRules.decimal(DecimalOp.MULTIPLY, dec(38, 2), dec(38, 2))).isEqualTo(dec(38, 4));
    assertThat(TypeRules.asDecimal(SqlType.INTEGER)).isEqualTo(dec(10, 0));
    assertThat(TypeRules.asDecimal(SqlType.BIGINT)).isEqualTo(dec(19, 0));
  }

  @Test
  void commonTypes() {
    assertThat(TypeRules.commonType(SqlType.TINYINT, SqlType.BIGINT)).isEqualTo(SqlType.BIGINT);
    assertThat(TypeRules.commonType(SqlType.INTEGER, dec(15, 2))).isEqualTo(dec(15, 2));
    assertThat(TypeRules.commonType(dec(5, 4), dec(15, 2))).isEqualTo(dec(17, 4));
    assertThat(TypeRules.commonType(SqlType.REAL, SqlType.REAL)).isEqualTo(SqlType.REAL);
    assertThat(TypeRules.commonType(SqlType.REAL, dec(15, 2))).isEqualTo(SqlType.DOUBLE);
    assertThat(TypeRules.commonType(SqlType.DATE, SqlType.TIMESTAMP)).isEqualTo(SqlType.TIMESTAMP);
    assertThat(TypeRules.commonType(SqlType.VARCHAR, SqlType.DATE)).isEqualTo(SqlType.DATE);
    assertThat(TypeRules.commonType(SqlType.VARCHAR, SqlType.INTEGER)).isNull();
    assertThat(TypeRules.commonType(SqlType.BOOLEAN, SqlType.INTEGER)).isNull();
  }

  @Test
  void arrowTypesMapBothWays() {
    for (SqlType type :
        new SqlType[] {
          SqlType.BOOLEAN, SqlType.TINYINT, SqlType.SMALLINT, SqlType.INTEGER, SqlType.BIGINT,
          SqlType.REAL, SqlType.DOUBLE, dec(38, 10), SqlType.VARCHAR, SqlType.DATE,
          SqlType.TIMESTAMP, SqlType.INTERVAL_DAY_TIME, SqlType.INTERVAL_YEAR_MONTH
        }) {
      assertThat(SqlType.of(type.arrow())).isEqualTo(type);
    }
    assertThat(dec(15, 2)).hasToString("DECIMAL(15,2)");
    assertThatThrownBy(() -> SqlType.of(new ArrowType.Int(32, false)))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> SqlType.decimal(39, 0)).isInstanceOf(QuiverException.class);
  }
}
