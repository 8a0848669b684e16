package dev.quiver.operators.join;

import static dev.quiver.testing.RandomBatches.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.OperatorContext;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The truth table of {@code x NOT IN (subquery)} and {@code x IN (subquery)}: probe keys 1, 3 and
 * NULL against subqueries with and without NULLs, and an empty one.
 */
@ExtendWith(ArrowLeakCheck.class)
class NullAwareJoinTest {
  private static final Schema KEY = new Schema(List.of(field("k", new ArrowType.Int(32, true))));
  private static final Integer[] PROBE = {1, 3, null};

  @ParameterizedTest(name = "build={0}: NOT IN keeps {1}, IN marks {2}, NOT EXISTS keeps {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1 2      | 3      | true false null  | 3 null",
        "1 null   | -      | true null null   | 3 null",
        "-        | 1 3 null | false false false | 1 3 null",
        "null     | -      | null null null   | 1 3 null",
        "3 3 null | -      | null true null   | 1 null",
        "5        | 1 3    | false false null | 1 3 null"
      })
  void truthTable(String build, String notIn, String in, String notExists, BufferAllocator a) {
    List<Integer> buildKeys = values(build);
    assertThat(join(a, JoinKind.nullAware(JoinType.LEFT_ANTI), buildKeys))
        .containsExactlyInAnyOrderElementsOf(rows(values(notIn)));
    assertThat(join(a, JoinKind.of(JoinType.LEFT_ANTI), buildKeys))
        .containsExactlyInAnyOrderElementsOf(rows(values(notExists)));
    List<List<Object>> marks = new ArrayList<>();
    List<String> expectedMarks = Arrays.asList(in.trim().split("\\s+"));
    for (int i = 0; i < PROBE.length; i++) {
      String mark = expectedMarks.get(i);
      marks.add(Arrays.asList(PROBE[i], mark.equals("null") ? null : Boolean.valueOf(mark)));
    }
    assertThat(join(a, JoinKind.nullAware(JoinType.LEFT_MARK), buildKeys))
        .containsExactlyInAnyOrderElementsOf(marks);
  }

  @Test
  void plainMarkJoinIsTwoValued(BufferAllocator a) {
    assertThat(join(a, JoinKind.of(JoinType.LEFT_MARK), Arrays.asList(1, null)))
        .containsExactlyInAnyOrder(
            Arrays.asList(1, true), Arrays.asList(3, false), Arrays.asList(null, false));
  }

  @Test
  void nullAwareJoinsTakeOneKeyAndNoFilter(BufferAllocator a) {
    Schema two = new Schema(List.of(KEY.getFields().get(0), field("j", ArrowType.Utf8.INSTANCE)));
    JoinKind notIn = JoinKind.nullAware(JoinType.LEFT_ANTI);
    OperatorContext context = OperatorContext.of(a);
    assertThatThrownBy(
            () ->
                new HashJoinOperator(
                    context, notIn, two, new int[] {0, 1}, two, new int[] {0, 1}, null, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exactly one key");
    JoinFilter filter = (build, buildRows, probe, probeRows, count, keep) -> {};
    assertThatThrownBy(
            () ->
                new HashJoinOperator(
                    context, notIn, KEY, new int[] {0}, KEY, new int[] {0}, filter, b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static List<List<Object>> join(BufferAllocator a, JoinKind kind, List<Integer> build) {
    // Probe rows arrive in two batches, build rows one per batch: state must carry across batches.
    List<VectorSchemaRoot> buildBatches = new ArrayList<>();
    for (Integer key : build) {
      buildBatches.add(batch(a, Arrays.asList(key)));
    }
    List<VectorSchemaRoot> probeBatches =
        new ArrayList<>(
            List.of(
                batch(a, Arrays.asList(PROBE[0])),
                batch(a, Arrays.asList(PROBE).subList(1, PROBE.length))));
    HashJoinCheck check = new HashJoinCheck(kind, KEY, new int[] {0}, KEY, new int[] {0});
    return check.run(a, buildBatches, probeBatches).rows(); // also checks against the reference
  }

  private static List<Integer> values(String text) {
    List<Integer> values = new ArrayList<>();
    for (String value : text.trim().split("\\s+")) {
      if (!value.equals("-")) {
        values.add(value.equals("null") ? null : Integer.valueOf(value));
      }
    }
    return values;
  }

  private static List<List<Object>> rows(List<Integer> keys) {
    List<List<Object>> rows = new ArrayList<>();
    for (Integer key : keys) {
      rows.add(Arrays.asList(key));
    }
    return rows;
  }

  private static VectorSchemaRoot batch(BufferAllocator a, List<Integer> keys) {
    VectorSchemaRoot root = VectorSchemaRoot.create(KEY, a);
    IntVector vector = (IntVector) root.getVector(0);
    vector.allocateNew(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      if (keys.get(i) == null) {
        vector.setNull(i);
      } else {
        vector.set(i, keys.get(i));
      }
    }
    root.setRowCount(keys.size());
    return root;
  }
}
