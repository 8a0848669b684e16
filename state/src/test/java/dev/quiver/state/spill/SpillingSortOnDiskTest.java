package dev.quiver.state.spill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.sort.SortOperator;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The sort operator spilling through real files: the same order, and an empty disk after. */
@ExtendWith(ArrowLeakCheck.class)
class SpillingSortOnDiskTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  private static final int I32 = 3;
  private static final int UTF8 = 9;

  @TempDir Path tmp;

  static Stream<SpillCompression> compressions() {
    return Stream.of(SpillCompression.NONE, SpillCompression.DEFAULT);
  }

  @ParameterizedTest
  @MethodSource("compressions")
  void sortsWithATinyBudget(SpillCompression compression, BufferAllocator allocator)
      throws IOException {
    RandomBatches random = new RandomBatches(9).distinctValues(50).nullFraction(0.1);
    List<VectorSchemaRoot> input = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (int b = 0; b < 40; b++) {
      VectorSchemaRoot batch = random.batch(SCHEMA, 500, allocator);
      expected.addAll(BatchRows.rows(batch));
      input.add(batch);
    }
    List<SortKey> keys = List.of(new SortKey(I32, true, true), new SortKey(UTF8, false, false));
    expected.sort(reference());

    List<Path> roots = List.of(Files.createDirectory(tmp.resolve("a")), tmp);
    MemoryBudget budget = new MemoryBudget("on disk", 256 * 1024);
    List<List<Object>> actual = new ArrayList<>();
    try (FileSpillSpace space = new FileSpillSpace(roots, "sort test", compression)) {
      OperatorContext context = new OperatorContext(allocator, budget, 1000, space);
      try (SortOperator sort =
          new SortOperator(
              context,
              SCHEMA,
              keys,
              batch -> {
                try (batch) {
                  actual.addAll(BatchRows.rows(batch));
                }
              })) {
        input.forEach(batch -> sort.add(0, batch));
        sort.finish(0);
      }
      assertThat(space.spilledFiles()).isGreaterThan(1);
      assertThat(space.spilledRows()).isGreaterThanOrEqualTo(10_000);
      assertThat(space.liveFiles()).as("runs deleted once merged").isZero();
      assertThat(space.directories()).hasSize(2);
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(budget.used()).isZero();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).containsExactly(tmp.resolve("a"));
    }
  }

  /** i32 ascending nulls first, then utf8 descending nulls last (code point order = byte order). */
  private static Comparator<List<Object>> reference() {
    Comparator<Object> i32 = Comparator.nullsFirst(Comparator.comparing(v -> (Integer) v));
    Comparator<Object> utf8 =
        Comparator.nullsLast(Comparator.comparing((Object v) -> (String) v).reversed());
    return Comparator.<List<Object>, Object>comparing(row -> row.get(I32), i32)
        .thenComparing(row -> row.get(UTF8), utf8);
  }
}
