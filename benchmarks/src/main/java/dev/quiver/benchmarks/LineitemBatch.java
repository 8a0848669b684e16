package dev.quiver.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A batch shaped like TPC-H {@code lineitem} (all 16 columns, no nulls), with values drawn from the
 * ranges of the TPC-H specification (clause 4.2.3) at scale factor 1 by a seeded {@link Random}, so
 * every run measures the same bytes. Rows come in order-key order with 1–7 lines per order, as
 * {@code dbgen} writes them.
 */
final class LineitemBatch {
  static final Schema SCHEMA =
      new Schema(
          List.of(
              field("l_orderkey", new ArrowType.Int(64, true)),
              field("l_partkey", new ArrowType.Int(64, true)),
              field("l_suppkey", new ArrowType.Int(64, true)),
              field("l_linenumber", new ArrowType.Int(32, true)),
              field("l_quantity", decimal()),
              field("l_extendedprice", decimal()),
              field("l_discount", decimal()),
              field("l_tax", decimal()),
              field("l_returnflag", ArrowType.Utf8.INSTANCE),
              field("l_linestatus", ArrowType.Utf8.INSTANCE),
              field("l_shipdate", new ArrowType.Date(DateUnit.DAY)),
              field("l_commitdate", new ArrowType.Date(DateUnit.DAY)),
              field("l_receiptdate", new ArrowType.Date(DateUnit.DAY)),
              field("l_shipinstruct", ArrowType.Utf8.INSTANCE),
              field("l_shipmode", ArrowType.Utf8.INSTANCE),
              field("l_comment", ArrowType.Utf8.INSTANCE)));

  private static final int ORDERS = 1_500_000;
  private static final int PARTS = 200_000;
  private static final int SUPPLIERS = 10_000;
  private static final int START_DATE = (int) LocalDate.of(1992, 1, 1).toEpochDay();
  private static final int LAST_ORDER_DATE = (int) LocalDate.of(1998, 8, 2).toEpochDay();
  private static final int CURRENT_DATE = (int) LocalDate.of(1995, 6, 17).toEpochDay();
  private static final String[] INSTRUCTIONS = {
    "DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"
  };
  private static final String[] MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
  private static final byte[][] INSTRUCTION_BYTES =
      java.util.Arrays.stream(INSTRUCTIONS).map(LineitemBatch::bytes).toArray(byte[][]::new);
  private static final byte[][] MODE_BYTES =
      java.util.Arrays.stream(MODES).map(LineitemBatch::bytes).toArray(byte[][]::new);
  private static final byte[] R = bytes("R");
  private static final byte[] A = bytes("A");
  private static final byte[] N = bytes("N");
  private static final byte[] O = bytes("O");
  private static final byte[] F = bytes("F");
  private static final String[] COMMENT_WORDS = {
    "furiously",
    "carefully",
    "quickly",
    "slyly",
    "blithely",
    "final",
    "regular",
    "ironic",
    "pending",
    "express",
    "special",
    "unusual",
    "bold",
    "even",
    "silent",
    "deposits",
    "packages",
    "accounts",
    "requests",
    "instructions",
    "theodolites",
    "foxes",
    "pinto",
    "beans",
    "ideas",
    "dependencies",
    "platelets",
    "asymptotes",
    "sleep",
    "wake",
    "nag",
    "haggle",
    "cajole",
    "boost",
    "detect",
    "integrate",
    "use",
    "are",
    "above",
    "among",
    "across",
    "after",
    "against",
    "along"
  };

  private LineitemBatch() {}

  /** A new batch of {@code rows} lineitem rows in {@code allocator}, owned by the caller. */
  static VectorSchemaRoot create(BufferAllocator allocator, int rows, long seed) {
    Random random = new Random(seed);
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    try {
      root.getFieldVectors().forEach(vector -> vector.setInitialCapacity(rows));
      root.allocateNew();
      Generator generator = new Generator(random, random.nextInt(ORDERS - rows), null);
      for (int row = 0; row < rows; row++) {
        generator.write(root, row);
      }
      root.setRowCount(rows);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  /** Hears of every line written, with what an {@code orders} row derives from its lines. */
  interface OrderListener {
    /**
     * One line of order {@code orderKey}, ordered on {@code orderDate} (days since the epoch); the
     * line's extended price in cents, its discount and tax in hundredths.
     */
    void line(long orderKey, int orderDate, long extendedCents, int discount, int tax);
  }

  /**
   * Writes consecutive lineitem rows: the lines of consecutive orders, 1–7 lines each (4 on
   * average), starting after order index {@code firstOrder}. Order index {@code i} has the sparse
   * TPC-H key {@link #sparseOrderKey}{@code (i)}.
   */
  static final class Generator {
    private final Random random;
    private final OrderListener orders;
    private int order;
    private int linesLeft;
    private int line;
    private int orderDate;

    Generator(Random random, int firstOrder, OrderListener orders) {
      this.random = random;
      this.order = firstOrder;
      this.orders = orders;
    }

    /** Writes the next row at index {@code row} of {@code root} (of {@link #SCHEMA}). */
    void write(VectorSchemaRoot root, int row) {
      if (linesLeft == 0) {
        order++;
        linesLeft = 1 + random.nextInt(7);
        line = 0;
        orderDate = START_DATE + random.nextInt(LAST_ORDER_DATE - START_DATE + 1);
      }
      linesLeft--;
      line++;
      long partKey = 1 + random.nextInt(PARTS);
      int quantity = 1 + random.nextInt(50);
      long retailCents = 90_000 + (partKey / 10) % 20_001 + 100 * (partKey % 1_000);
      int shipDate = orderDate + 1 + random.nextInt(121);
      int commitDate = orderDate + 30 + random.nextInt(61);
      int receiptDate = shipDate + 1 + random.nextInt(30);
      byte[] returnFlag = receiptDate <= CURRENT_DATE ? (random.nextBoolean() ? R : A) : N;
      long orderKey = sparseOrderKey(order);
      long extendedCents = quantity * retailCents;

      bigInt(root, 0).set(row, orderKey);
      bigInt(root, 1).set(row, partKey);
      bigInt(root, 2).set(row, 1 + random.nextInt(SUPPLIERS));
      ((IntVector) root.getVector(3)).set(row, line);
      decimal(root, 4).set(row, quantity * 100L);
      decimal(root, 5).set(row, extendedCents);
      int discount = random.nextInt(11);
      decimal(root, 6).set(row, discount);
      int tax = random.nextInt(9);
      decimal(root, 7).set(row, tax);
      utf8(root, 8, row, returnFlag);
      utf8(root, 9, row, shipDate > CURRENT_DATE ? O : F);
      date(root, 10).set(row, shipDate);
      date(root, 11).set(row, commitDate);
      date(root, 12).set(row, receiptDate);
      utf8(root, 13, row, INSTRUCTION_BYTES[random.nextInt(INSTRUCTIONS.length)]);
      utf8(root, 14, row, MODE_BYTES[random.nextInt(MODES.length)]);
      utf8(root, 15, row, text(random, COMMENT_WORDS, 10, 43).getBytes(StandardCharsets.UTF_8));
      if (orders != null) {
        orders.line(orderKey, orderDate, extendedCents, discount, tax);
      }
    }
  }

  /** TPC-H order keys are sparse: 8 used keys in every 32. */
  static long sparseOrderKey(int order) {
    return (long) (order / 8) * 32 + order % 8 + 1;
  }

  /** Words of {@code vocabulary} joined by spaces, cut to a uniform length in [min, max]. */
  static String text(Random random, String[] vocabulary, int min, int max) {
    int length = min + random.nextInt(max - min + 1);
    StringBuilder text = new StringBuilder(max + 16);
    while (text.length() < length) {
      if (text.length() > 0) {
        text.append(' ');
      }
      text.append(vocabulary[random.nextInt(vocabulary.length)]);
    }
    text.setLength(length);
    return text.toString();
  }

  static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }

  static ArrowType decimal() {
    return new ArrowType.Decimal(15, 2, 128);
  }

  private static BigIntVector bigInt(VectorSchemaRoot root, int column) {
    return (BigIntVector) root.getVector(column);
  }

  private static DecimalVector decimal(VectorSchemaRoot root, int column) {
    return (DecimalVector) root.getVector(column);
  }

  private static DateDayVector date(VectorSchemaRoot root, int column) {
    return (DateDayVector) root.getVector(column);
  }

  private static void utf8(VectorSchemaRoot root, int column, int row, byte[] value) {
    ((VarCharVector) root.getVector(column)).setSafe(row, value);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
