package dev.quiver.cli.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** What counts as the same value when an engine's answer is compared with DuckDB's. */
class ResultComparisonTest {
  @Test
  void decimalsAreEqualAtTheSmallerScale() {
    assertThat(ResultComparison.same(new BigDecimal("1.50"), new BigDecimal("1.5"))).isTrue();
    assertThat(ResultComparison.same(new BigDecimal("1.50"), new BigDecimal("1.51"))).isFalse();
  }

  @Test
  void doublesAgreeWithin1e9Relative() {
    assertThat(ResultComparison.same(1.0, 1.0 + 1e-12)).isTrue();
    assertThat(ResultComparison.same(1.0, 1.0 + 1e-8)).isFalse();
  }

  @Test
  void aDoubleAndAShortDecimalAgreeAtTheDecimalsScale() {
    // DuckDB's AVG of a decimal is a DOUBLE; Quiver's a decimal of scale 6.
    assertThat(ResultComparison.same(25.510198, new BigDecimal("25.510198"))).isTrue();
    assertThat(ResultComparison.same(25.5101985, new BigDecimal("25.510199"))).isTrue();
    assertThat(ResultComparison.same(25.51, new BigDecimal("25.53"))).isFalse(); // two units off
  }

  @Test
  void aDoubleAndALongDecimalAgreeAtDoublePrecision() {
    // TPC-DS q31 at SF 1: DuckDB divides in DOUBLE, Quiver in DECIMAL with 23 decimal places.
    assertThat(
            ResultComparison.same(0.8002212225532332, new BigDecimal("0.80022122255323317000452")))
        .isTrue();
    // q58: a quotient cut to 6 decimal places is not the same value.
    assertThat(ResultComparison.same(100.34961157203742, new BigDecimal("100.349600"))).isFalse();
  }
}
