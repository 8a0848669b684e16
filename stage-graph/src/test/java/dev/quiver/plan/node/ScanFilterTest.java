package dev.quiver.plan.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.node.ScanFilter.Comparison;
import dev.quiver.plan.node.ScanFilter.Op;
import dev.quiver.plan.type.SqlType;
import dev.quiver.stage.StagePlanner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pushed filter on a scan: printed on the Scan line, kept by planning, serializable. */
class ScanFilterTest {
  private static final ScanFilter SINCE_1995 =
      ScanFilter.of(
          new Comparison("o_date", Op.GE, new Literal(LocalDate.of(1995, 1, 1), SqlType.DATE)),
          new Comparison("o_id", Op.LT, new Literal(1000L, SqlType.BIGINT)));

  @Test
  void scanPrintsItsFilterAndOnlyTheRemainingUnitsAreAssigned() {
    TableSource orders = PlanFixtures.orders();
    List<SplitUnit> remaining = orders.units().subList(0, 4);
    Scan scan = new Scan(orders.withFilter(SINCE_1995, remaining), 2);

    assertThat(scan.toString())
        .isEqualTo(
            "Scan[orders [o_id, o_cust, o_total, o_date],"
                + " filter=(o_date >= DATE '1995-01-01' AND o_id < 1000), units=4, tasks=2]");
    String explain = StagePlanner.withDefaultRewrites().plan(scan).explain();
    assertThat(explain)
        .contains(
            "Scan[orders [o_id, o_cust, o_total, o_date], filter=(o_date >= DATE '1995-01-01'"
                + " AND o_id < 1000), units=4, tasks=[2 units 2000 B, 2 units 2000 B]]");
  }

  @Test
  void projectionKeepsTheFilter() {
    TableSource filtered = PlanFixtures.orders().withFilter(SINCE_1995, List.of());
    assertThat(filtered.withSchema(PlanFixtures.ORDERS).filter()).contains(SINCE_1995);
  }

  @Test
  void aFilterOnAColumnTheScanDoesNotReadIsRejected() {
    TableSource customers = PlanFixtures.customers();
    assertThatThrownBy(() -> customers.withFilter(SINCE_1995, customers.units()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names a column the scan does not read");
  }

  @Test
  void comparisonsWithNullAreRejectedAndOperatorsFlip() {
    assertThatThrownBy(() -> new Comparison("o_id", Op.EQ, new Literal(null, SqlType.BIGINT)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Op.LT.flipped()).isEqualTo(Op.GT);
    assertThat(Op.GE.flipped()).isEqualTo(Op.LE);
    assertThat(Op.NE.flipped()).isEqualTo(Op.NE);
  }

  @Test
  void filterSurvivesJavaSerialization() throws Exception {
    TableSource source = PlanFixtures.orders().withFilter(SINCE_1995, List.of());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(source);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(((TableSource) in.readObject()).filter()).contains(SINCE_1995);
    }
  }
}
