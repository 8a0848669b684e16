package dev.quiver.operators.function.string;

import static dev.quiver.operators.function.string.FunctionTesting.batch;
import static dev.quiver.operators.function.string.FunctionTesting.constant;
import static dev.quiver.operators.function.string.FunctionTesting.row;
import static dev.quiver.operators.function.string.FunctionTesting.rows;
import static dev.quiver.operators.function.string.FunctionTesting.selected;
import static dev.quiver.operators.function.string.FunctionTesting.values;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Edge cases of the string kernels that are easier to pin here than in SQL: 4-byte characters,
 * constant and column arguments mixed, the extremes of BIGINT counts, filters.
 */
@ExtendWith(ArrowLeakCheck.class)
class StringKernelsTest {
  private static final Expr S = col(0, SqlType.VARCHAR);
  private static final Expr T = col(1, SqlType.VARCHAR);
  private static final Expr N = col(2, SqlType.BIGINT);

  private static VectorSchemaRoot sample(BufferAllocator allocator) {
    return batch(
        allocator,
        rows(
            row("héllo 😀 wörld", "ö", 3L),
            row("😀😀", "😀", -1L),
            row("", "", 0L),
            row(null, "x", 1L),
            row("aaaa", "aa", Long.MIN_VALUE),
            row("abc", null, Long.MAX_VALUE)));
  }

  @Test
  void replaceAndStrpos(BufferAllocator allocator) {
    try (VectorSchemaRoot batch = sample(allocator)) {
      assertThat(values(allocator, batch, "replace", S, T, lit("<é>")))
          .containsExactly("héllo 😀 w<é>rld", "<é><é>", "", null, "<é><é>", null);
      assertThat(values(allocator, batch, "strpos", S, T))
          .containsExactly(10L, 1L, 1L, null, 1L, null);
      assertThat(values(allocator, batch, "instr", S, lit("😀")))
          .containsExactly(7L, 1L, 0L, null, 0L, 0L);
    }
  }

  @Test
  void leftAndRightCountCharactersFromEitherEnd(BufferAllocator allocator) {
    try (VectorSchemaRoot batch = sample(allocator)) {
      assertThat(values(allocator, batch, "left", S, N))
          .containsExactly("hél", "😀", "", null, "", "abc");
      assertThat(values(allocator, batch, "right", S, N))
          .containsExactly("rld", "😀", "", null, "", "abc");
      assertThat(values(allocator, batch, "left", S, lit(-2L)))
          .containsExactly("héllo 😀 wör", "", "", null, "aa", "a");
      assertThat(values(allocator, batch, "right", S, lit(-7L)))
          .containsExactly(" wörld", "", "", null, "", "");
    }
  }

  @Test
  void reverseKeepsMultiByteCharactersWhole(BufferAllocator allocator) {
    try (VectorSchemaRoot batch = sample(allocator)) {
      assertThat(values(allocator, batch, "reverse", S))
          .containsExactly("dlröw 😀 olléh", "😀😀", "", null, "aaaa", "cba");
    }
  }

  @Test
  void repeat(BufferAllocator allocator) {
    try (VectorSchemaRoot batch = sample(allocator)) {
      assertThat(values(allocator, batch, "repeat", T, N))
          .containsExactly("ööö", "", "", "x", "", null);
      assertThat(constant(allocator, "repeat", lit("ab"), lit(3L))).isEqualTo("ababab");
      assertThatThrownBy(() -> values(allocator, batch, "repeat", S, N))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
  }

  @Test
  void startsWithAndEndsWithAsValuesAndFilters(BufferAllocator allocator) {
    try (VectorSchemaRoot batch = sample(allocator)) {
      assertThat(values(allocator, batch, "starts_with", S, T))
          .containsExactly(false, true, true, null, true, null);
      assertThat(values(allocator, batch, "suffix", S, lit("😀")))
          .containsExactly(false, true, false, null, false, false);
      assertThat(selected(allocator, batch, "prefix", S, lit("a"))).containsExactly(4, 5);
      assertThat(selected(allocator, batch, "ends_with", S, lit("")))
          .containsExactly(0, 1, 2, 4, 5);
    }
  }

  @Test
  void splitPart(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        batch(
            allocator,
            rows(
                row("a😀b😀😀c", "😀", 2L),
                row("a😀b😀😀c", "😀", -2L),
                row("a😀b😀😀c", "😀", -4L),
                row("a😀b😀😀c", "😀", -5L),
                row("a😀b😀😀c", "😀", Long.MIN_VALUE),
                row("a😀b😀😀c", "😀", Long.MAX_VALUE),
                row("é😀", "", -2L),
                row("é😀", "", -3L),
                row("é😀", "", Long.MIN_VALUE),
                row("é😀", "", 2L),
                row("aaa", "aa", 2L)))) {
      assertThat(values(allocator, batch, "split_part", S, T, N))
          .containsExactly("b", "", "a", "", "", "", "é", "", "", "😀", "a");
    }
  }

  @Test
  void initcapAsciiChrMd5(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        batch(
            allocator,
            rows(
                row("élan vital-X ßtraße", 0x1F600L),
                row("", 0L),
                row(null, 0x10FFFFL),
                row("3d ÅSA", 0xE9L)))) {
      assertThat(values(allocator, batch, "initcap", S))
          .containsExactly("Élan Vital-X ßtraße", "", null, "3d Åsa");
      assertThat(values(allocator, batch, "ascii", S)).containsExactly(0xE9, 0, null, 0x33);
      assertThat(values(allocator, batch, "chr", col(1, SqlType.BIGINT)))
          .containsExactly("😀", "\0", new String(Character.toChars(0x10FFFF)), "é");
      assertThat(values(allocator, batch, "md5", S))
          .containsExactly(
              md5("élan vital-X ßtraße"), "d41d8cd98f00b204e9800998ecf8427e", null, md5("3d ÅSA"));
      assertThat(constant(allocator, "md5", lit("abc")))
          .isEqualTo("900150983cd24fb0d6963f7d28e17f72");
    }
    assertThatThrownBy(() -> constant(allocator, "chr", lit(0xD800L)))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }

  private static String md5(String s) {
    try {
      byte[] digest =
          java.security.MessageDigest.getInstance("MD5")
              .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(digest);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
