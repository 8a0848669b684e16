package dev.quiver.benchmarks;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Row count, and per column the null count and an order-independent checksum of the values (the sum
 * of a 64-bit mix of each value's Arrow hash), so that readers that split a table differently, or
 * read it on several threads, can be compared.
 */
final class ColumnChecksums {
  private final List<ArrowType> types;
  private final long[] sums;
  private final long[] nulls;
  private long rows;

  ColumnChecksums(List<ArrowType> types) {
    this.types = List.copyOf(types);
    this.sums = new long[types.size()];
    this.nulls = new long[types.size()];
  }

  void add(VectorSchemaRoot batch) {
    for (int c = 0; c < sums.length; c++) {
      FieldVector vector = batch.getVector(c);
      if (!vector.getField().getType().equals(types.get(c))) {
        throw new IllegalStateException(
            "column " + c + " has type " + vector.getField().getType() + ", not " + types.get(c));
      }
      for (int i = 0; i < batch.getRowCount(); i++) {
        if (vector.isNull(i)) {
          nulls[c]++;
        } else {
          sums[c] += mix(vector.hashCode(i) + 0x9E3779B97F4A7C15L * (c + 1));
        }
      }
    }
    rows += batch.getRowCount();
  }

  synchronized void add(ColumnChecksums other) {
    for (int c = 0; c < sums.length; c++) {
      sums[c] += other.sums[c];
      nulls[c] += other.nulls[c];
    }
    rows += other.rows;
  }

  long rows() {
    return rows;
  }

  long nullCount() {
    return Arrays.stream(nulls).sum();
  }

  /** Null if equal, else what differs. */
  String difference(ColumnChecksums other) {
    if (rows != other.rows) {
      return "rows " + rows + " vs " + other.rows;
    }
    for (int c = 0; c < sums.length; c++) {
      if (nulls[c] != other.nulls[c] || sums[c] != other.sums[c]) {
        return "column "
            + c
            + ": nulls "
            + nulls[c]
            + " vs "
            + other.nulls[c]
            + ", checksum "
            + Long.toHexString(sums[c])
            + " vs "
            + Long.toHexString(other.sums[c]);
      }
    }
    return null;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("rows=" + rows);
    for (int c = 0; c < sums.length; c++) {
      text.append(' ').append(Long.toHexString(sums[c])).append('/').append(nulls[c]);
    }
    return text.toString();
  }

  // The finaliser of MurmurHash3's 64-bit variant.
  private static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return x;
  }
}
