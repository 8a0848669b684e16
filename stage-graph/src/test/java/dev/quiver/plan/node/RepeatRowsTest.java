package dev.quiver.plan.node;

import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.sort.SortKey;
import org.junit.jupiter.api.Test;

/** The times column is dropped; partitioning and ordering pass through, renumbered. */
class RepeatRowsTest {
  @Test
  void dropsTheTimesColumnAndRenumbersTheRest() {
    PlanBuilder hashed = orders(2).repartition(hash(3), 4).sort(SortKey.asc(3), SortKey.asc(1));
    PlanNode repeated = hashed.repeatRows(1).build();
    assertThat(repeated.schema().columns())
        .extracting(Column::name)
        .containsExactly("o_id", "o_total", "o_date");
    assertThat(repeated.partitioning()).isEqualTo(Partitioning.hash(keys(2), 4));
    assertThat(repeated.ordering()).containsExactly(SortKey.asc(2)); // cut at the times column
    assertThat(repeated).hasToString("RepeatRows[times=#1]");
  }

  @Test
  void partitioningOnTheTimesColumnIsLost() {
    PlanNode repeated = orders(2).repartition(hash(0), 2).repeatRows(0).build();
    assertThat(repeated.partitioning()).isEqualTo(Partitioning.unknown(2));
  }

  @Test
  void timesMustBeABigintColumn() {
    assertThatThrownBy(() -> orders(2).repeatRows(2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("must be BIGINT");
    assertThatThrownBy(() -> orders(2).repeatRows(4))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("times column");
  }
}
