package dev.quiver.operators.hash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** XXH64 against reference values (the published ones, and lz4-java's XXHash64 for the rest). */
@ExtendWith(ArrowLeakCheck.class)
class XxHash64Test {

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource({
    "'', ef46db3751d8e999",
    "a, d24ec4f1a98c6e5b",
    "abc, 44bc2cf5ad770999",
    "quiver, 4c8303df937468d2"
  })
  void matchesReferenceForStrings(String text, String expectedHex, BufferAllocator a) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    assertThat(hashAtEveryOffset(bytes, a)).isEqualTo(Long.parseUnsignedLong(expectedHex, 16));
  }

  /** Lengths around the 4-lane (32 byte) and 8- and 4-byte steps of the algorithm. */
  @ParameterizedTest(name = "length {0}")
  @CsvSource({
    "7, 9a7b149959ce60d8",
    "31, a2aa5f33cc4a6119",
    "32, 23c3c17ef790fd97",
    "33, 50a7cfc7ba588784",
    "100, a61f8d4c170fe531",
    "1000, 5f235fa033f1a3fb"
  })
  void matchesReferenceForLengths(int length, String expectedHex, BufferAllocator a) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (i * 7 + 3);
    }
    assertThat(hashAtEveryOffset(bytes, a)).isEqualTo(Long.parseUnsignedLong(expectedHex, 16));
  }

  @Test
  void independentOfTheBytesAround(BufferAllocator a) {
    try (ArrowBuf buffer = a.buffer(64)) {
      byte[] value = "same bytes".getBytes(StandardCharsets.UTF_8);
      buffer.setOne(0, 64);
      buffer.setBytes(5, value);
      long first = XxHash64.hash(buffer, 5, value.length);
      buffer.setZero(0, 64);
      buffer.setBytes(5, value);
      assertThat(XxHash64.hash(buffer, 5, value.length)).isEqualTo(first);
    }
  }

  /** The hash of {@code bytes} placed at offsets 0 to 8, asserting it is the same at each. */
  private static long hashAtEveryOffset(byte[] bytes, BufferAllocator a) {
    try (ArrowBuf buffer = a.buffer(bytes.length + 16L)) {
      buffer.setBytes(0, bytes);
      long hash = XxHash64.hash(buffer, 0, bytes.length);
      for (int offset = 1; offset <= 8; offset++) {
        buffer.setBytes(offset, bytes);
        assertThat(XxHash64.hash(buffer, offset, bytes.length)).isEqualTo(hash);
      }
      return hash;
    }
  }
}
