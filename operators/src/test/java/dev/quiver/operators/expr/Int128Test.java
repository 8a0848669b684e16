package dev.quiver.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The 128-bit helpers the math functions use, against BigInteger. */
class Int128Test {
  private static final BigInteger TWO_127 = BigInteger.ONE.shiftLeft(127);

  @Test
  void addOneCarriesAndBorrowsAcrossWords() {
    Int128 x = new Int128();
    x.set(0, -1L); // 2^64 - 1
    assertThat(x.add(1)).isTrue();
    assertThat(x.toBigInteger()).isEqualTo(BigInteger.ONE.shiftLeft(64));
    assertThat(x.add(-1)).isTrue();
    assertThat(x.toBigInteger()).isEqualTo(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));
    x.set(Long.MAX_VALUE, -1L);
    assertThat(x.add(1)).isFalse();
    x.set(Long.MIN_VALUE, 0);
    assertThat(x.add(-1)).isFalse();
  }

  @Test
  void divideByPowerOfTenTruncatesTowardZero() {
    Random random = new Random(7);
    Int128 x = new Int128();
    for (int n = 0; n < 20_000; n++) {
      BigInteger value = new BigInteger(1 + random.nextInt(127), random);
      if (random.nextBoolean()) {
        value = value.negate();
      }
      int k = random.nextInt(40);
      x.set(value);
      boolean inexact = x.divideByPowerOfTen(k);
      BigInteger[] qr = value.divideAndRemainder(BigInteger.TEN.pow(k));
      assertThat(x.toBigInteger()).as("%s / 10^%d", value, k).isEqualTo(qr[0]);
      assertThat(inexact).as("%s / 10^%d inexact", value, k).isEqualTo(qr[1].signum() != 0);
    }
    x.set(Long.MIN_VALUE, 0); // -2^127, which has no negation
    assertThat(x.divideByPowerOfTen(30)).isTrue();
    assertThat(x.toBigInteger()).isEqualTo(TWO_127.negate().divide(BigInteger.TEN.pow(30)));
  }
}
