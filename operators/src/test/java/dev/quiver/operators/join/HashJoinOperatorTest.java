package dev.quiver.operators.join;

import static dev.quiver.testing.RandomBatches.field;

import dev.quiver.operators.join.JoinHarness.RowFilter;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every join kind against the reference on randomized inputs with fixed seeds. */
@ExtendWith(ArrowLeakCheck.class)
class HashJoinOperatorTest {
  static final Schema BUILD =
      new Schema(
          List.of(
              field("bk", new ArrowType.Int(64, true)),
              field("bs", ArrowType.Utf8.INSTANCE),
              field("bv", new ArrowType.Int(32, true))));
  static final Schema PROBE =
      new Schema(
          List.of(
              field("ps", ArrowType.Utf8.INSTANCE),
              field("px", new ArrowType.Int(32, true)),
              field("pk", new ArrowType.Int(64, true))));

  /** {@code (bv + px) % 3 != 0}: rejects about a third of the matches; NULL rejects. */
  static final RowFilter SOME =
      new RowFilter(
          "(bv + px) % 3 <> 0",
          (b, p) ->
              b.get(2) != null
                  && p.get(1) != null
                  && Math.floorMod((Integer) b.get(2) + (Integer) p.get(1), 3) != 0);

  /** Every join kind: the nine types, plus the two null-aware ones. */
  static List<JoinKind> kinds() {
    List<JoinKind> kinds = new ArrayList<>();
    for (JoinType type : JoinType.values()) {
      kinds.add(JoinKind.of(type));
      if (type.supportsNullAware()) {
        kinds.add(JoinKind.nullAware(type));
      }
    }
    return kinds;
  }

  static Stream<JoinKind> plainKinds() {
    return kinds().stream().filter(kind -> !kind.nullAware());
  }

  private static HashJoinCheck singleKey(JoinKind kind) {
    return new HashJoinCheck(kind, BUILD, new int[] {0}, PROBE, new int[] {2});
  }

  private static HashJoinCheck twoKeys(JoinKind kind) {
    return new HashJoinCheck(kind, BUILD, new int[] {0, 1}, PROBE, new int[] {2, 0});
  }

  private static RandomBatches random(long seed, int distinct, double nulls) {
    return new RandomBatches(seed).distinctValues(distinct).nullFraction(nulls);
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void nullsInKeysOnBothSides(JoinKind kind, BufferAllocator a) {
    singleKey(kind)
        .runRandom(a, random(1, 30, 0.1), new int[] {100, 0, 57}, new int[] {200, 1, 0, 64});
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void noNullsAtAll(JoinKind kind, BufferAllocator a) {
    singleKey(kind).runRandom(a, random(2, 40, 0), new int[] {90, 33}, new int[] {150, 70});
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void emptyBuildSide(JoinKind kind, BufferAllocator a) {
    singleKey(kind).runRandom(a, random(3, 10, 0.2), new int[] {0}, new int[] {100, 30});
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void emptyProbeSide(JoinKind kind, BufferAllocator a) {
    singleKey(kind).runRandom(a, random(4, 10, 0.2), new int[] {100, 30}, new int[] {0});
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void allKeysNull(JoinKind kind, BufferAllocator a) {
    singleKey(kind).runRandom(a, random(5, 10, 1.0), new int[] {20, 5}, new int[] {30});
  }

  @ParameterizedTest
  @MethodSource("plainKinds")
  void twoKeyColumnsOfMixedTypes(JoinKind kind, BufferAllocator a) {
    twoKeys(kind).runRandom(a, random(6, 8, 0.1), new int[] {120, 77}, new int[] {100, 100, 3});
  }

  @ParameterizedTest
  @MethodSource("plainKinds")
  void residualFilterRejectsSomeMatches(JoinKind kind, BufferAllocator a) {
    singleKey(kind)
        .withFilter(SOME)
        .runRandom(a, random(7, 20, 0.1), new int[] {100, 60}, new int[] {200, 64, 1});
  }

  @ParameterizedTest
  @MethodSource("plainKinds")
  void residualFilterOnTwoKeys(JoinKind kind, BufferAllocator a) {
    twoKeys(kind)
        .withFilter(SOME)
        .runRandom(a, random(8, 5, 0.05), new int[] {150}, new int[] {100, 100});
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void manySmallBatches(JoinKind kind, BufferAllocator a) {
    int[] build = new int[150];
    int[] probe = new int[250];
    for (int i = 0; i < build.length; i++) {
      build[i] = 1 + i % 7;
    }
    for (int i = 0; i < probe.length; i++) {
      probe[i] = i % 13;
    }
    singleKey(kind).withTarget(128).runRandom(a, random(9, 60, 0.05), build, probe);
  }

  @ParameterizedTest
  @MethodSource("plainKinds")
  void buildSideSplitIntoSeveralSegments(JoinKind kind, BufferAllocator a) {
    singleKey(kind)
        .withFilter(SOME)
        .withSegmentRows(100)
        .runRandom(a, random(10, 25, 0.1), new int[] {60, 60, 60, 150, 30}, new int[] {300, 50});
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void oneRowBatchesAndTargetOfOneRow(JoinKind kind, BufferAllocator a) {
    singleKey(kind)
        .withTarget(1)
        .runRandom(a, random(11, 4, 0.2), new int[] {1, 1, 1, 1, 1}, new int[] {1, 1, 1, 1});
  }
}
