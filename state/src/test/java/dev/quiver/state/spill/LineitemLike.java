package dev.quiver.state.spill;

import java.nio.charset.StandardCharsets;
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
 * Rows shaped like TPC-H {@code lineitem} (the examples module's types, dbgen's value ranges and
 * vocabularies), for measuring spill compression without the generator: state must not depend on
 * the examples module. Compression ratios on these rows come within a few points of real dbgen rows
 * (state/README.md has both).
 */
final class LineitemLike {
  static final Schema SCHEMA =
      new Schema(
          List.of(
              field("l_orderkey", new ArrowType.Int(64, true)),
              field("l_partkey", new ArrowType.Int(64, true)),
              field("l_suppkey", new ArrowType.Int(64, true)),
              field("l_linenumber", new ArrowType.Int(32, true)),
              field("l_quantity", new ArrowType.Decimal(15, 2, 128)),
              field("l_extendedprice", new ArrowType.Decimal(15, 2, 128)),
              field("l_discount", new ArrowType.Decimal(15, 2, 128)),
              field("l_tax", new ArrowType.Decimal(15, 2, 128)),
              field("l_returnflag", ArrowType.Utf8.INSTANCE),
              field("l_linestatus", ArrowType.Utf8.INSTANCE),
              field("l_shipdate", new ArrowType.Date(DateUnit.DAY)),
              field("l_commitdate", new ArrowType.Date(DateUnit.DAY)),
              field("l_receiptdate", new ArrowType.Date(DateUnit.DAY)),
              field("l_shipinstruct", ArrowType.Utf8.INSTANCE),
              field("l_shipmode", ArrowType.Utf8.INSTANCE),
              field("l_comment", ArrowType.Utf8.INSTANCE)));

  private static final String[] INSTRUCTIONS = {
    "DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"
  };
  private static final String[] MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
  private static final String[] WORDS = {
    "furiously",
    "sly",
    "careful",
    "blithely",
    "quickly",
    "fluffily",
    "slyly",
    "ironic",
    "final",
    "regular",
    "express",
    "pending",
    "bold",
    "even",
    "special",
    "silent",
    "unusual",
    "deposits",
    "requests",
    "accounts",
    "packages",
    "instructions",
    "theodolites",
    "foxes",
    "ideas",
    "pinto",
    "beans",
    "dependencies",
    "excuses",
    "platelets",
    "asymptotes",
    "courts",
    "dolphins",
    "sleep",
    "wake",
    "are",
    "cajole",
    "haggle",
    "nag",
    "use",
    "boost",
    "affix",
    "detect",
    "integrate",
    "above",
    "against",
    "along",
    "among",
    "across",
    "after",
    "the",
    "carefully"
  };
  private static final int START = 8035; // 1992-01-01 in days since the epoch
  private static final int DAYS = 2405; // to 1998-08-02

  private final Random random;
  private long orderkey;
  private int line;
  private int lines;

  LineitemLike(long seed) {
    this.random = new Random(seed);
  }

  /** The next {@code rows} rows, in dbgen's order (by order key, then line number). */
  VectorSchemaRoot batch(int rows, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    for (int i = 0; i < rows; i++) {
      if (line == lines) {
        orderkey += 1 + (orderkey % 8 == 7 ? 24 : 0); // dbgen's sparse keys: 8 of every 32
        lines = 1 + random.nextInt(7);
        line = 0;
      }
      line++;
      long partkey = 1 + random.nextInt(200_000);
      int quantity = 1 + random.nextInt(50);
      long price = (90_000 + partkey / 10 % 20_001 + 100 * (partkey % 1_000)) * quantity;
      int ship = START + random.nextInt(DAYS - 151) + 1 + random.nextInt(121);
      int receipt = ship + 1 + random.nextInt(30);
      ((BigIntVector) root.getVector(0)).setSafe(i, orderkey);
      ((BigIntVector) root.getVector(1)).setSafe(i, partkey);
      ((BigIntVector) root.getVector(2)).setSafe(i, 1 + random.nextInt(10_000));
      ((IntVector) root.getVector(3)).setSafe(i, line);
      ((DecimalVector) root.getVector(4)).setSafe(i, quantity * 100L);
      ((DecimalVector) root.getVector(5)).setSafe(i, price);
      ((DecimalVector) root.getVector(6)).setSafe(i, random.nextInt(11));
      ((DecimalVector) root.getVector(7)).setSafe(i, random.nextInt(9));
      boolean shipped = receipt <= 9298; // 1995-06-17
      text(root, 8, i, shipped ? (random.nextBoolean() ? "R" : "A") : "N");
      text(root, 9, i, ship > 9298 ? "O" : "F");
      ((DateDayVector) root.getVector(10)).setSafe(i, ship);
      ((DateDayVector) root.getVector(11)).setSafe(i, ship - 30 + random.nextInt(61));
      ((DateDayVector) root.getVector(12)).setSafe(i, receipt);
      text(root, 13, i, INSTRUCTIONS[random.nextInt(INSTRUCTIONS.length)]);
      text(root, 14, i, MODES[random.nextInt(MODES.length)]);
      text(root, 15, i, comment());
    }
    root.setRowCount(rows);
    return root;
  }

  /** 10 to 43 characters of dbgen-like words. */
  private String comment() {
    int length = 10 + random.nextInt(34);
    StringBuilder text = new StringBuilder(length + 16);
    while (text.length() < length) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
    }
    return text.substring(0, length);
  }

  private static void text(VectorSchemaRoot root, int column, int row, String value) {
    ((VarCharVector) root.getVector(column)).setSafe(row, value.getBytes(StandardCharsets.UTF_8));
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }
}
