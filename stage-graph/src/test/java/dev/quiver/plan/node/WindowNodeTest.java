package dev.quiver.plan.node;

import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFrame.Bound;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.plan.window.WindowTopN;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The window node: output schema and types, the input it requires, printing, serialization. */
class WindowNodeTest {
  private static final WindowFrame RUNNING = WindowFrame.DEFAULT_ORDERED;

  /** The stage cutter's check of a window built over inputs that may not be distributed. */
  private static ThrowingCallable checked(PlanBuilder window) {
    Window node = (Window) window.build();
    return node::checkInputsDistributed;
  }

  private static PlanBuilder sortedByCustomerAndDate() {
    return orders(3).repartition(hash(1), 4).sort(SortKey.asc(1), SortKey.asc(3));
  }

  @Test
  void appendsOneColumnPerCallWithSqlResultTypes() {
    PlanNode window =
        sortedByCustomerAndDate()
            .window(
                keys(1),
                List.of(SortKey.asc(3)),
                WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"),
                WindowCall.ranking(WindowFunction.PERCENT_RANK, "pr"),
                WindowCall.of(WindowFunction.SUM, keys(2), RUNNING, "s"),
                WindowCall.of(WindowFunction.AVG, keys(2), RUNNING, "a"),
                WindowCall.of(WindowFunction.AVG, keys(0), RUNNING, "ai"),
                WindowCall.of(WindowFunction.COUNT_STAR, keys(), RUNNING, "c"),
                WindowCall.offset(WindowFunction.LEAD, 3, 2, -1, "next"),
                WindowCall.of(WindowFunction.MIN, keys(3), RUNNING, "first_date"))
            .build();
    List<Column> added = window.schema().columns().subList(4, 12);
    assertThat(added)
        .containsExactly(
            Column.notNull("rn", SqlType.BIGINT),
            Column.notNull("pr", SqlType.DOUBLE),
            Column.of("s", SqlType.decimal(38, 2)),
            Column.of("a", SqlType.decimal(38, 6)),
            Column.of("ai", SqlType.DOUBLE),
            Column.notNull("c", SqlType.BIGINT),
            Column.of("next", SqlType.DATE),
            Column.of("first_date", SqlType.DATE));
    assertThat(window.partitioning()).isEqualTo(Partitioning.hash(keys(1), 4));
    assertThat(window.ordering()).containsExactly(SortKey.asc(1), SortKey.asc(3));
  }

  @Test
  void printsInOneLine() {
    PlanNode window =
        sortedByCustomerAndDate()
            .window(
                keys(1),
                List.of(SortKey.asc(3)),
                WindowCall.ranking(WindowFunction.DENSE_RANK, "d"),
                new WindowCall(WindowFunction.NTILE, List.of(), 4, null, "q"),
                WindowCall.offset(WindowFunction.LAG, 2, 1, 2, "prev"),
                new WindowCall(
                    WindowFunction.NTH_VALUE,
                    keys(2),
                    2,
                    WindowFrame.rows(Bound.unboundedPreceding(), Bound.following(1)),
                    "second"))
            .build();
    assertThat(window)
        .hasToString(
            "Window[partition=[#1], order=[#3 ASC NULLS LAST], calls=[dense_rank() AS d,"
                + " ntile(4) AS q, lag(#2, 1, #2) AS prev, nth_value(#2, 2) ROWS BETWEEN"
                + " UNBOUNDED PRECEDING AND 1 FOLLOWING AS second]]");
  }

  @Test
  void needsItsInputSortedByPartitionThenOrderKeysOnceDistributed() {
    PlanBuilder unsorted = orders(3).repartition(hash(1), 4);
    assertThatThrownBy(
            checked(
                unsorted.window(
                    keys(1),
                    List.of(SortKey.asc(3)),
                    WindowCall.ranking(WindowFunction.RANK, "r"))))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("sorted by the partition keys [#1] then the order keys")
        .hasMessageContaining("not sorted");
    PlanBuilder wrongOrder = unsorted.sort(SortKey.asc(1), SortKey.desc(3));
    assertThatThrownBy(
            checked(
                wrongOrder.window(
                    keys(1),
                    List.of(SortKey.asc(3)),
                    WindowCall.ranking(WindowFunction.RANK, "r"))))
        .hasMessageContaining("is sorted by [#1 ASC NULLS LAST, #3 DESC NULLS FIRST]");
  }

  @Test
  void needsItsPartitionsHashedOnPartitionKeysOrOnePartitionOnceDistributed() {
    PlanBuilder elsewhere = orders(3).repartition(hash(0), 4).sort(SortKey.asc(1));
    assertThatThrownBy(
            checked(
                elsewhere.window(
                    keys(1), List.of(), WindowCall.ranking(WindowFunction.ROW_NUMBER, "n"))))
        .isInstanceOf(QuiverException.class)
        .satisfies(
            e -> assertThat(((QuiverException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("hash-repartition the input on partition key columns [#1]");
    PlanBuilder many = orders(3).sort(SortKey.asc(3));
    assertThatThrownBy(
            checked(
                many.window(
                    keys(), List.of(SortKey.asc(3)), WindowCall.ranking(WindowFunction.RANK, "r"))))
        .hasMessageContaining("a window without PARTITION BY needs one partition");
    assertThat(
            orders(3)
                .coalesce(1)
                .window(keys(), List.of(), WindowCall.ranking(WindowFunction.ROW_NUMBER, "n"))
                .partitions())
        .isEqualTo(1);
  }

  @Test
  void rangeOffsetsNeedOneNumericOrDateOrderKey() {
    WindowFrame range = WindowFrame.range(Bound.preceding(1), Bound.currentRow());
    PlanBuilder twoKeys = orders(1).sort(SortKey.asc(3), SortKey.asc(0));
    assertThatThrownBy(
            () ->
                twoKeys.window(
                    keys(),
                    List.of(SortKey.asc(3), SortKey.asc(0)),
                    WindowCall.of(WindowFunction.SUM, keys(2), range, "s")))
        .hasMessageContaining("needs exactly one order key");
    WindowFrame fraction =
        WindowFrame.range(Bound.preceding(new BigDecimal("0.5")), Bound.currentRow());
    PlanBuilder byDate = orders(1).sort(SortKey.asc(3));
    assertThatThrownBy(
            () ->
                byDate.window(
                    keys(),
                    List.of(SortKey.asc(3)),
                    WindowCall.of(WindowFunction.SUM, keys(2), fraction, "s")))
        .hasMessageContaining("more fraction digits");
    assertThatThrownBy(
            () -> WindowFrame.rows(Bound.preceding(new BigDecimal("1.5")), Bound.currentRow()))
        .hasMessageContaining("ROWS offset must be an integer");
  }

  @Test
  void lagDefaultMustHaveTheArgumentsType() {
    assertThatThrownBy(
            () ->
                sortedByCustomerAndDate()
                    .window(
                        keys(1),
                        List.of(SortKey.asc(3)),
                        WindowCall.offset(WindowFunction.LAG, 2, 1, 0, "prev")))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("the default of lag(#2, 1, #0) is BIGINT, not DECIMAL(15,2)");
  }

  @Test
  void survivesJavaSerialization() throws Exception {
    PlanNode window =
        sortedByCustomerAndDate()
            .window(
                keys(1),
                List.of(SortKey.asc(3)),
                WindowCall.of(
                    WindowFunction.MAX,
                    keys(2),
                    WindowFrame.range(Bound.preceding(3), Bound.following(3)),
                    "m"))
            .build();
    PlanNode copy = serializedAndBack(window);
    assertThat(copy).hasToString(window.toString());
    assertThat(copy.schema()).isEqualTo(window.schema());
  }

  /** {@code node} written with Java serialization and read back. */
  private static PlanNode serializedAndBack(PlanNode node) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(node);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (PlanNode) in.readObject();
    }
  }

  /**
   * A window over event-time windows names its window end, one of its partition keys, and keeps it
   * through rebuilds and serialization; it is part of what the node is.
   */
  @Test
  void aWindowEndIsAPartitionKeyAndSurvivesRebuilds() throws Exception {
    Window plain =
        (Window)
            sortedByCustomerAndDate()
                .window(
                    keys(1, 3),
                    List.of(SortKey.desc(2)),
                    WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"))
                .build();
    assertThat(plain.windowEnd()).isEmpty();
    Window windowed = plain.withWindowEnd(3);
    assertThat(windowed.windowEnd()).hasValue(3);
    assertThat(windowed)
        .hasToString(
            "Window[partition=[#1, #3], order=[#2 DESC NULLS FIRST], calls=[row_number() AS rn],"
                + " window end=#3]")
        .isNotEqualTo(plain);
    assertThat(windowed.schema()).isEqualTo(plain.schema());
    PlanNode rebuilt = windowed.withChildren(List.of(orders(3).sort(SortKey.asc(1)).build()));
    assertThat(((Window) rebuilt).windowEnd()).hasValue(3);
    assertThat(serializedAndBack(windowed)).isEqualTo(windowed);
    assertThatThrownBy(() -> plain.withWindowEnd(2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("the window end #2 is not one of the partition keys [1, 3]");
  }

  /**
   * A window top-N's bound on a windowed ranking function shows in the node's line and survives
   * rebuilds, a window end added later and serialization; other functions or no window end refuse
   * it.
   */
  @Test
  void aTopNBoundsAWindowedRankingFunction() throws Exception {
    Window ranks =
        (Window)
            sortedByCustomerAndDate()
                .window(
                    keys(1, 3),
                    List.of(SortKey.desc(2)),
                    WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"),
                    WindowCall.ranking(WindowFunction.RANK, "rk"))
                .build();
    assertThat(ranks.canBeTopN()).isFalse();
    assertThatThrownBy(() -> ranks.withTopN(new WindowTopN(WindowFunction.RANK, 3)))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("needs a window end and ranking functions only");
    Window top = ranks.withWindowEnd(3).withTopN(new WindowTopN(WindowFunction.RANK, 3));
    assertThat(top.topN()).hasValue(new WindowTopN(WindowFunction.RANK, 3));
    assertThat(top.toString()).endsWith(", window end=#3, keep rank() <= 3]");
    assertThat(top).isNotEqualTo(ranks.withWindowEnd(3));
    PlanNode rebuilt = top.withChildren(List.of(orders(3).sort(SortKey.asc(1)).build()));
    assertThat(((Window) rebuilt).topN()).isEqualTo(top.topN());
    assertThat(serializedAndBack(top)).isEqualTo(top);
    assertThatThrownBy(
            () -> ranks.withWindowEnd(3).withTopN(new WindowTopN(WindowFunction.DENSE_RANK, 3)))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("its own among them");
    Window sums =
        ((Window)
                sortedByCustomerAndDate()
                    .window(
                        keys(1, 3),
                        List.of(SortKey.desc(2)),
                        WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"),
                        WindowCall.of(
                            WindowFunction.COUNT_STAR, List.of(), WindowFrame.WHOLE_PARTITION, "n"))
                    .build())
            .withWindowEnd(3);
    assertThat(sums.canBeTopN()).isFalse();
    assertThatThrownBy(() -> sums.withTopN(new WindowTopN(WindowFunction.ROW_NUMBER, 1)))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> new WindowTopN(WindowFunction.ROW_NUMBER, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n >= 1");
  }
}
