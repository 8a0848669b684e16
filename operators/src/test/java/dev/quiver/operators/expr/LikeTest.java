package dev.quiver.operators.expr;

import static dev.quiver.plan.expr.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Like;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** LIKE fast paths and the general matcher against java.util.regex. */
@ExtendWith(ArrowLeakCheck.class)
class LikeTest {
  private static final Expr S = col(0, SqlType.VARCHAR);
  private static final String ALPHABET = "abé%_☃";

  @Test
  void patternsTakeTheirFastPaths() {
    assertThat(shape("PROMO%")).isEqualTo(LikePattern.Shape.PREFIX);
    assertThat(shape("%BRASS")).isEqualTo(LikePattern.Shape.SUFFIX);
    assertThat(shape("%green%")).isEqualTo(LikePattern.Shape.CONTAINS);
    assertThat(shape("MED BOX")).isEqualTo(LikePattern.Shape.EXACT);
    assertThat(shape("%%")).isEqualTo(LikePattern.Shape.ANY);
    assertThat(shape("%special%requests%")).isEqualTo(LikePattern.Shape.GENERAL);
    assertThat(shape("a_c")).isEqualTo(LikePattern.Shape.GENERAL);
    assertThat(new LikePattern("100!%", '!').shape).isEqualTo(LikePattern.Shape.EXACT);
  }

  private static LikePattern.Shape shape(String pattern) {
    return new LikePattern(pattern, null).shape;
  }

  @Test
  void randomPatternsMatchRegex(BufferAllocator allocator) {
    Random random = new Random(5);
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(java.util.Arrays.asList(i % 17 == 0 ? null : randomText(random, 12, "abé☃%_")));
    }
    List<String> patterns =
        new ArrayList<>(
            List.of(
                "", "%", "a%", "%a", "%b%", "a%b", "_", "__", "%_é%", "a%b%a", "%a_%_b", "é☃%",
                "%☃", "_%_", "a!%%", "%!_%", "!!%"));
    for (int i = 0; i < 150; i++) {
      patterns.add(randomText(random, 6, "abé☃%_"));
    }
    try (VectorSchemaRoot batch = ExprCheck.batch(allocator, List.of(SqlType.VARCHAR), rows)) {
      for (String pattern : patterns) {
        Character escape = pattern.contains("!") ? '!' : null;
        for (boolean negated : new boolean[] {false, true}) {
          ExprCheck.check(new Like(S, pattern, escape, negated), batch, allocator);
        }
      }
    }
  }

  private static String randomText(Random random, int maxLength, String alphabet) {
    StringBuilder text = new StringBuilder();
    for (int i = random.nextInt(maxLength + 1); i > 0; i--) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  @Test
  void longStringsAndMultiByteUnderscores(BufferAllocator allocator) {
    String longText = "x".repeat(10_000) + "needle☃" + "y".repeat(5000);
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator, List.of(SqlType.VARCHAR), ExprCheck.column(longText, "☃", "a☃b", "ab"))) {
      for (String pattern :
          List.of("%needle_%", "%needle☃y%", "_", "a_b", "%e_y%", "x%y", "%x_y%")) {
        ExprCheck.check(new Like(S, pattern, null, false), batch, allocator);
      }
      assertThat(PredicateTest.values(new Like(S, "a_b", null, false), batch, allocator))
          .containsExactly(false, false, true, false);
    }
  }

  @Test
  void badEscapeIsRejected() {
    assertThatThrownBy(() -> new Like(S, "50!", '!', false))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("'50!'");
  }
}
