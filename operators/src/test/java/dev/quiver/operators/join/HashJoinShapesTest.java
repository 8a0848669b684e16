package dev.quiver.operators.join;

import static dev.quiver.operators.join.HashJoinOperatorTest.BUILD;
import static dev.quiver.operators.join.HashJoinOperatorTest.PROBE;
import static dev.quiver.operators.join.HashJoinOperatorTest.SOME;
import static dev.quiver.testing.RandomBatches.ALL_TYPES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.join.JoinHarness.Output;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Data shapes: skew, wide and long keys, edge decimals, 64K-row batches. */
@ExtendWith(ArrowLeakCheck.class)
class HashJoinShapesTest {

  static List<JoinKind> kinds() {
    return HashJoinOperatorTest.kinds();
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void skewedKeyWithHugeFanOutEmitsManyBoundedBatches(JoinKind kind, BufferAllocator a) {
    Random random = new Random(42);
    RandomBatches batches = new RandomBatches(42).distinctValues(1000).nullFraction(0.02);
    List<VectorSchemaRoot> build = List.of(skew(batches.batch(BUILD, 400, a), 0, random));
    List<VectorSchemaRoot> probe = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      probe.add(skew(batches.batch(PROBE, 250, a), 2, random));
    }
    HashJoinCheck check =
        new HashJoinCheck(kind, BUILD, new int[] {0}, PROBE, new int[] {2}).withTarget(1000);
    Output output = check.run(a, build, probe);
    if (kind.type().emitsPairs()) {
      // About 360 × 900 pairs share the hot key: hundreds of full batches, none above the target.
      assertThat(output.batchSizes().size()).isGreaterThan(300);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.quiver.operators.join.HashJoinOperatorTest#plainKinds")
  void skewedKeyWithResidualFilter(JoinKind kind, BufferAllocator a) {
    Random random = new Random(7);
    RandomBatches batches = new RandomBatches(7).distinctValues(50).nullFraction(0.05);
    List<VectorSchemaRoot> build = List.of(skew(batches.batch(BUILD, 300, a), 0, random));
    List<VectorSchemaRoot> probe = List.of(skew(batches.batch(PROBE, 500, a), 2, random));
    new HashJoinCheck(kind, BUILD, new int[] {0}, PROBE, new int[] {2})
        .withFilter(SOME)
        .withTarget(512)
        .withSegmentRows(128)
        .run(a, build, probe);
  }

  @ParameterizedTest
  @MethodSource("dev.quiver.operators.join.HashJoinOperatorTest#plainKinds")
  void fourKeyColumnsOfMixedTypes(JoinKind kind, BufferAllocator a) {
    // Build keys i64, dec38_10, date, utf8; the probe side has them in another order.
    Schema build = select(ALL_TYPES, 4, 8, 10, 9, 6);
    Schema probe = select(ALL_TYPES, 10, 9, 3, 4, 8);
    RandomBatches random = new RandomBatches(13).distinctValues(3).nullFraction(0.05);
    new HashJoinCheck(kind, build, new int[] {0, 1, 2, 3}, probe, new int[] {3, 4, 0, 1})
        .runRandom(a, random, new int[] {200, 100}, new int[] {300});
  }

  @ParameterizedTest
  @MethodSource("dev.quiver.operators.join.HashJoinOperatorTest#plainKinds")
  void edgeDecimalsLongStringsAndTimestampsJoinWithThemselves(JoinKind kind, BufferAllocator a) {
    // Two generators with one seed make equal batches: every row meets its twin.
    Schema schema = select(ALL_TYPES, 8, 9, 11, 7);
    List<VectorSchemaRoot> build = new ArrayList<>();
    List<VectorSchemaRoot> probe = new ArrayList<>();
    RandomBatches left = new RandomBatches(99).maxStringLength(3000).nullFraction(0.05);
    RandomBatches right = new RandomBatches(99).maxStringLength(3000).nullFraction(0.05);
    for (int size : new int[] {100, 37}) {
      build.add(left.batch(schema, size, a));
      probe.add(right.batch(schema, size, a));
    }
    new HashJoinCheck(kind, schema, new int[] {0, 1, 2, 3}, schema, new int[] {0, 1, 2, 3})
        .run(a, build, probe);
  }

  @ParameterizedTest
  @MethodSource("dev.quiver.operators.join.HashJoinOperatorTest#plainKinds")
  void longStringKeysWithASharedPrefix(JoinKind kind, BufferAllocator a) {
    Schema schema = new Schema(List.of(BUILD.getFields().get(1), BUILD.getFields().get(2)));
    Random random = new Random(5);
    new HashJoinCheck(kind, schema, new int[] {0}, schema, new int[] {0})
        .withTarget(100)
        .run(
            a,
            List.of(longStrings(schema, 150, random, a)),
            List.of(longStrings(schema, 200, random, a)));
  }

  @Test
  void batchesOf64KRows(BufferAllocator a) {
    for (JoinType type : new JoinType[] {JoinType.INNER, JoinType.FULL, JoinType.LEFT_MARK}) {
      RandomBatches random = new RandomBatches(64).distinctValues(100_000).nullFraction(0.01);
      Output output =
          new HashJoinCheck(JoinKind.of(type), BUILD, new int[] {0}, PROBE, new int[] {2})
              .withTarget(8192)
              .runRandom(a, random, new int[] {65_536}, new int[] {65_536});
      assertThat(output.rows()).hasSizeGreaterThan(30_000);
    }
  }

  /** Gives about 90% of the rows of {@code column} (an int64 key) the key 7. */
  private static VectorSchemaRoot skew(VectorSchemaRoot batch, int column, Random random) {
    BigIntVector key = (BigIntVector) batch.getVector(column);
    for (int row = 0; row < batch.getRowCount(); row++) {
      if (random.nextDouble() < 0.9) {
        key.set(row, 7);
      }
    }
    return batch;
  }

  /** Rows whose utf8 key is 2,000 shared characters, one of 20 digits and a random tail. */
  private static VectorSchemaRoot longStrings(
      Schema schema, int rows, Random random, BufferAllocator a) {
    VectorSchemaRoot batch = VectorSchemaRoot.create(schema, a);
    VarCharVector key = (VarCharVector) batch.getVector(0);
    IntVector value = (IntVector) batch.getVector(1);
    key.allocateNew(rows);
    value.allocateNew(rows);
    String prefix = "x".repeat(2000);
    for (int row = 0; row < rows; row++) {
      value.set(row, random.nextInt(10));
      if (random.nextInt(10) == 0) {
        key.setNull(row);
      } else {
        String tail = "y".repeat(random.nextInt(3) * 500);
        key.setSafe(row, (prefix + random.nextInt(20) + tail).getBytes(StandardCharsets.UTF_8));
      }
    }
    batch.setRowCount(rows);
    return batch;
  }

  private static Schema select(Schema schema, int... columns) {
    List<Field> fields = new ArrayList<>();
    for (int column : columns) {
      fields.add(schema.getFields().get(column));
    }
    return new Schema(fields);
  }
}
