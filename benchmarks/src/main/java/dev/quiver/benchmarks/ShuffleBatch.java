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
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batch a shuffle typically moves after a projection: three candidate key columns and three
 * payload columns, in random key order (as after a scan of many files or an earlier exchange).
 *
 * <pre>
 *   0 orderkey int64   1 linenumber int32   2 name utf8 (10–20 chars, ~8k distinct)
 *   3 quantity decimal(15,2)   4 extendedprice decimal(15,2)   5 shipdate date32
 * </pre>
 */
final class ShuffleBatch {
  static final Schema SCHEMA =
      new Schema(
          List.of(
              LineitemBatch.field("orderkey", new ArrowType.Int(64, true)),
              LineitemBatch.field("linenumber", new ArrowType.Int(32, true)),
              LineitemBatch.field("name", ArrowType.Utf8.INSTANCE),
              LineitemBatch.field("quantity", LineitemBatch.decimal()),
              LineitemBatch.field("extendedprice", LineitemBatch.decimal()),
              LineitemBatch.field("shipdate", new ArrowType.Date(DateUnit.DAY))));

  static final int ORDERKEY = 0;
  static final int LINENUMBER = 1;
  static final int NAME = 2;

  /** TPC-H part-name colours (clause 4.2.3): two or three of them make a 10–20 character key. */
  private static final String[] COLOURS = {
    "almond",
    "antique",
    "aquamarine",
    "azure",
    "beige",
    "bisque",
    "black",
    "blanched",
    "blue",
    "blush",
    "brown",
    "burlywood",
    "burnished",
    "chartreuse",
    "chiffon",
    "chocolate",
    "coral",
    "cornflower",
    "cornsilk",
    "cream",
    "cyan",
    "dark",
    "deep",
    "dim",
    "dodger",
    "drab",
    "firebrick",
    "floral",
    "forest",
    "frosted",
    "gainsboro",
    "ghost",
    "goldenrod",
    "green",
    "grey",
    "honeydew",
    "hot",
    "indian",
    "ivory",
    "khaki",
    "lace",
    "lavender",
    "lawn",
    "lemon",
    "light",
    "lime",
    "linen",
    "magenta",
    "maroon",
    "medium",
    "metallic",
    "midnight",
    "mint",
    "misty",
    "moccasin",
    "navajo",
    "navy",
    "olive",
    "orange",
    "orchid",
    "pale",
    "papaya",
    "peach",
    "peru",
    "pink",
    "plum",
    "powder",
    "puff",
    "purple",
    "red",
    "rose",
    "rosy",
    "royal",
    "saddle",
    "salmon",
    "sandy",
    "seashell",
    "sienna",
    "sky",
    "slate",
    "smoke",
    "snow",
    "spring",
    "steel",
    "tan",
    "thistle",
    "tomato",
    "turquoise",
    "violet",
    "wheat",
    "white",
    "yellow"
  };

  private static final int START_DATE = (int) LocalDate.of(1992, 1, 1).toEpochDay();
  private static final int DAYS = 2_526; // up to 1998-12-01

  private ShuffleBatch() {}

  /** A new batch of {@code rows} rows in {@code allocator}, owned by the caller. */
  static VectorSchemaRoot create(BufferAllocator allocator, int rows, long seed) {
    Random random = new Random(seed);
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    try {
      root.getFieldVectors().forEach(vector -> vector.setInitialCapacity(rows));
      root.allocateNew();
      for (int row = 0; row < rows; row++) {
        int quantity = 1 + random.nextInt(50);
        ((BigIntVector) root.getVector(ORDERKEY)).set(row, 1 + random.nextInt(6_000_000));
        ((IntVector) root.getVector(LINENUMBER)).set(row, 1 + random.nextInt(7));
        byte[] name = LineitemBatch.text(random, COLOURS, 10, 20).getBytes(StandardCharsets.UTF_8);
        ((VarCharVector) root.getVector(NAME)).setSafe(row, name);
        ((DecimalVector) root.getVector(3)).set(row, quantity * 100L);
        ((DecimalVector) root.getVector(4))
            .set(row, quantity * (90_000L + random.nextInt(110_000)));
        ((DateDayVector) root.getVector(5)).set(row, START_DATE + random.nextInt(DAYS));
      }
      root.setRowCount(rows);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }
}
