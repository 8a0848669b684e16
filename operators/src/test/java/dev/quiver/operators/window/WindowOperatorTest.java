package dev.quiver.operators.window;

import static dev.quiver.plan.window.WindowFrame.Bound.currentRow;
import static dev.quiver.plan.window.WindowFrame.Bound.following;
import static dev.quiver.plan.window.WindowFrame.Bound.preceding;
import static dev.quiver.plan.window.WindowFrame.Bound.unboundedFollowing;
import static dev.quiver.plan.window.WindowFrame.Bound.unboundedPreceding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The window operator against {@link WindowReference} on random sorted inputs: ties, NULLs in
 * partition and order keys, partitions across batch boundaries, one-row partitions.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowOperatorTest {
  // p INT, o INT, x BIGINT, d DECIMAL(10,2), s VARCHAR, f DOUBLE
  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("p", new ArrowType.Int(32, true)),
              Field.nullable("o", new ArrowType.Int(32, true)),
              Field.nullable("x", new ArrowType.Int(64, true)),
              Field.nullable("d", new ArrowType.Decimal(10, 2, 128)),
              Field.nullable("s", new ArrowType.Utf8()),
              Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  private static final WindowFrame RUNNING = WindowFrame.DEFAULT_ORDERED;

  static List<WindowCall> allCalls() {
    return List.of(
        WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"),
        WindowCall.ranking(WindowFunction.RANK, "rk"),
        WindowCall.ranking(WindowFunction.DENSE_RANK, "dr"),
        WindowCall.ranking(WindowFunction.PERCENT_RANK, "pr"),
        WindowCall.ranking(WindowFunction.CUME_DIST, "cd"),
        new WindowCall(WindowFunction.NTILE, List.of(), 3, null, "nt"),
        WindowCall.offset(WindowFunction.LAG, 2, 1, -1, "lag"),
        WindowCall.offset(WindowFunction.LEAD, 4, 2, 4, "lead"),
        WindowCall.offset(WindowFunction.LAG, 3, 3, 3, "lagd"),
        WindowCall.of(WindowFunction.FIRST_VALUE, List.of(4), RUNNING, "fv"),
        WindowCall.of(WindowFunction.LAST_VALUE, List.of(2), RUNNING, "lv"),
        new WindowCall(
            WindowFunction.NTH_VALUE,
            List.of(2),
            2,
            WindowFrame.rows(preceding(1), following(1)),
            "nth"),
        WindowCall.of(WindowFunction.COUNT_STAR, List.of(), RUNNING, "cs"),
        WindowCall.of(
            WindowFunction.COUNT, List.of(2), WindowFrame.rows(preceding(2), currentRow()), "cx"),
        WindowCall.of(
            WindowFunction.SUM,
            List.of(2),
            WindowFrame.rows(unboundedPreceding(), following(1)),
            "sx"),
        WindowCall.of(
            WindowFunction.SUM, List.of(3), WindowFrame.range(preceding(2), following(1)), "sd"),
        WindowCall.of(WindowFunction.AVG, List.of(2), RUNNING, "ax"),
        WindowCall.of(
            WindowFunction.AVG, List.of(3), WindowFrame.rows(preceding(3), preceding(1)), "ad"),
        WindowCall.of(WindowFunction.AVG, List.of(5), WindowFrame.WHOLE_PARTITION, "af"),
        WindowCall.of(
            WindowFunction.MIN, List.of(2), WindowFrame.rows(preceding(2), following(2)), "mnx"),
        WindowCall.of(WindowFunction.MAX, List.of(4), RUNNING, "mxs"),
        WindowCall.of(
            WindowFunction.MIN, List.of(3), WindowFrame.range(currentRow(), following(3)), "mnd"),
        WindowCall.of(
            WindowFunction.MAX, List.of(5), WindowFrame.rows(following(1), following(3)), "mxf"),
        WindowCall.of(WindowFunction.SUM, List.of(5), RUNNING, "sf"),
        WindowCall.of(
            WindowFunction.COUNT,
            List.of(2),
            WindowFrame.range(following(1), unboundedFollowing()),
            "cxf"),
        WindowCall.of(
            WindowFunction.MAX,
            List.of(3),
            WindowFrame.range(unboundedPreceding(), preceding(1)),
            "mxd"));
  }

  static Stream<Arguments> shapes() {
    List<Arguments> shapes = new ArrayList<>();
    SortKey[] orders = {
      SortKey.asc(1),
      SortKey.desc(1),
      SortKey.asc(1).withNullsFirst(),
      SortKey.desc(1).withNullsLast()
    };
    for (int seed = 0; seed < 3; seed++) {
      for (SortKey order : orders) {
        shapes.add(Arguments.of(seed, List.of(0), order, 6));
      }
    }
    shapes.add(Arguments.of(7, List.of(), SortKey.asc(1), 6));
    shapes.add(Arguments.of(8, List.of(0), SortKey.desc(1), 50)); // one-row partitions mostly
    shapes.add(Arguments.of(9, List.of(0, 4), SortKey.asc(1), 4));
    return shapes.stream();
  }

  @ParameterizedTest(name = "seed {0}, partition {1}, order {2}, {3} partitions")
  @MethodSource("shapes")
  void matchesTheRowAtATimeReference(
      int seed, List<Integer> partition, SortKey order, int partitions, BufferAllocator allocator) {
    Random random = new Random(seed);
    List<List<Object>> rows = randomRows(random, 300, partitions);
    List<SortKey> sortKeys = new ArrayList<>();
    partition.forEach(p -> sortKeys.add(SortKey.asc(p)));
    sortKeys.add(order);
    rows.sort(comparator(sortKeys));
    check(rows, partition, List.of(order), allCalls(), random, allocator, 16);
  }

  @Test
  void withoutOrderByEveryRowIsAPeerAndTheFrameIsThePartition(BufferAllocator allocator) {
    Random random = new Random(11);
    List<List<Object>> rows = randomRows(random, 120, 5);
    rows.sort(comparator(List.of(SortKey.asc(0))));
    List<WindowCall> calls =
        List.of(
            WindowCall.ranking(WindowFunction.RANK, "rk"),
            WindowCall.ranking(WindowFunction.CUME_DIST, "cd"),
            WindowCall.of(WindowFunction.SUM, List.of(2), WindowFrame.WHOLE_PARTITION, "s"),
            WindowCall.of(WindowFunction.MAX, List.of(4), WindowFrame.WHOLE_PARTITION, "m"));
    check(rows, List.of(0), List.of(), calls, random, allocator, 7);
  }

  @Test
  void emptyInputEmitsNothing(BufferAllocator allocator) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    try (WindowOperator window =
        new WindowOperator(
            OperatorContext.of(allocator),
            SCHEMA,
            List.of(0),
            List.of(SortKey.asc(1)),
            allCalls(),
            out::add)) {
      window.add(0, VectorSchemaRoot.create(SCHEMA, allocator));
      window.finish(0);
    }
    assertThat(out).isEmpty();
  }

  @Test
  void aPartitionBeyondTheBudgetFailsNamingTheWindow(BufferAllocator allocator) {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      rows.add(Arrays.asList(1, i, (long) i, null, "v", 1.0));
    }
    OperatorContext context =
        new OperatorContext(allocator, new MemoryBudget("task 0", 64 * 1024), 256);
    try (WindowOperator window =
        new WindowOperator(
            context,
            SCHEMA,
            List.of(0),
            List.of(SortKey.asc(1)),
            List.of(WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn")),
            VectorSchemaRoot::close)) {
      assertThatThrownBy(
              () -> {
                for (int from = 0; from < rows.size(); from += 100) {
                  window.add(0, batch(rows.subList(from, from + 100), allocator));
                }
              })
          .isInstanceOf(QuiverException.class)
          .satisfies(
              e ->
                  assertThat(((QuiverException) e).code())
                      .isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining(
              "one partition of Window[partition=[#0], order=[#1 ASC NULLS LAST]");
    }
  }

  @Test
  void completePartitionsMakeRoomInASmallBudget(BufferAllocator allocator) {
    Random random = new Random(5);
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(Arrays.asList(i / 10, random.nextInt(4), (long) random.nextInt(9), null, "v", 1.0));
    }
    MemoryBudget budget = new MemoryBudget("task 0", 1024 * 1024);
    OperatorContext context = new OperatorContext(allocator, budget, 4096);
    List<WindowCall> calls = List.of(WindowCall.of(WindowFunction.SUM, List.of(2), RUNNING, "s"));
    List<List<Object>> out = new ArrayList<>();
    try (WindowOperator window =
        new WindowOperator(
            context,
            SCHEMA,
            List.of(0),
            List.of(SortKey.asc(1)),
            calls,
            batch -> {
              try (batch) {
                out.addAll(BatchRows.rows(batch));
              }
            })) {
      for (int from = 0; from < rows.size(); from += 100) {
        window.add(0, batch(rows.subList(from, from + 100), allocator));
      }
      window.finish(0);
    }
    assertThat(out).hasSize(3000);
    assertThat(budget.used()).isZero();
  }

  private static void check(
      List<List<Object>> rows,
      List<Integer> partition,
      List<SortKey> order,
      List<WindowCall> calls,
      Random random,
      BufferAllocator allocator,
      int targetRows) {
    MemoryBudget budget = MemoryBudget.unlimited("test");
    OperatorContext context = new OperatorContext(allocator, budget, targetRows);
    List<List<Object>> out = new ArrayList<>();
    try (WindowOperator window =
        new WindowOperator(
            context,
            SCHEMA,
            partition,
            order,
            calls,
            batch -> {
              try (batch) {
                assertThat(batch.getRowCount()).isBetween(1, targetRows);
                out.addAll(BatchRows.rows(batch));
              }
            })) {
      int from = 0;
      while (from < rows.size()) {
        int size = Math.min(rows.size() - from, 1 + random.nextInt(40));
        window.add(0, batch(rows.subList(from, from + size), allocator));
        from += size;
      }
      window.finish(0);
    }
    assertThat(budget.used()).isZero();
    assertThat(out).hasSize(rows.size());
    for (int r = 0; r < rows.size(); r++) {
      assertThat(out.get(r).subList(0, 6)).isEqualTo(rows.get(r));
    }
    for (int c = 0; c < calls.size(); c++) {
      List<Object> expected = WindowReference.compute(rows, partition, order, calls.get(c));
      for (int r = 0; r < rows.size(); r++) {
        Object actual = out.get(r).get(6 + c);
        Object want = expected.get(r);
        String where = calls.get(c) + " at row " + r + " " + rows.get(r);
        if (want instanceof Double && actual instanceof Double) {
          assertThat((Double) actual).as(where).isCloseTo((Double) want, within(1e-9));
        } else {
          assertThat(actual).as(where).isEqualTo(want);
        }
      }
    }
  }

  private static List<List<Object>> randomRows(Random random, int count, int partitions) {
    String[] strings = {"a", "b", "bb", "zebra", "é"};
    double[] doubles = {1.5, -2.25, 0.0, 100.0, 3.75};
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(
          Arrays.asList(
              random.nextInt(10) == 0 ? null : random.nextInt(partitions),
              random.nextInt(6) == 0 ? null : random.nextInt(12),
              random.nextInt(5) == 0 ? null : (long) random.nextInt(101) - 50,
              random.nextInt(5) == 0 ? null : BigDecimal.valueOf(random.nextInt(20001) - 10000, 2),
              random.nextInt(5) == 0 ? null : strings[random.nextInt(strings.length)],
              random.nextInt(5) == 0 ? null : doubles[random.nextInt(doubles.length)]));
    }
    return rows;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Comparator<List<Object>> comparator(List<SortKey> keys) {
    return (a, b) -> {
      for (SortKey key : keys) {
        Object x = a.get(key.column());
        Object y = b.get(key.column());
        if (x == null || y == null) {
          if (x == null && y == null) {
            continue;
          }
          return (x == null) == key.nullsFirst() ? -1 : 1;
        }
        int order = WindowReference.compare(x, y);
        if (order != 0) {
          return key.ascending() ? order : -order;
        }
      }
      return 0;
    };
  }

  static VectorSchemaRoot batch(List<List<Object>> rows, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    IntVector p = (IntVector) root.getVector(0);
    IntVector o = (IntVector) root.getVector(1);
    BigIntVector x = (BigIntVector) root.getVector(2);
    DecimalVector d = (DecimalVector) root.getVector(3);
    VarCharVector s = (VarCharVector) root.getVector(4);
    Float8Vector f = (Float8Vector) root.getVector(5);
    for (int i = 0; i < rows.size(); i++) {
      List<Object> row = rows.get(i);
      if (row.get(0) == null) p.setNull(i);
      else p.setSafe(i, (Integer) row.get(0));
      if (row.get(1) == null) o.setNull(i);
      else o.setSafe(i, (Integer) row.get(1));
      if (row.get(2) == null) x.setNull(i);
      else x.setSafe(i, (Long) row.get(2));
      if (row.get(3) == null) d.setNull(i);
      else d.setSafe(i, (BigDecimal) row.get(3));
      if (row.get(4) == null) {
        s.setNull(i);
      } else {
        s.setSafe(i, ((String) row.get(4)).getBytes(StandardCharsets.UTF_8));
      }
      if (row.get(5) == null) f.setNull(i);
      else f.setSafe(i, (Double) row.get(5));
    }
    root.setRowCount(rows.size());
    return root;
  }
}
