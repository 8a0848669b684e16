package dev.quiver.plan.node;

import static dev.quiver.plan.expr.Exprs.DECIMAL_15_2;

import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.List;

/** Tables the plan tests share: TPC-H-like orders and customers with fixed split units. */
public final class PlanFixtures {
  /** {@code (o_id BIGINT NOT NULL, o_cust BIGINT, o_total DECIMAL(15,2), o_date DATE)}. */
  public static final RowSchema ORDERS =
      RowSchema.of(
          Column.notNull("o_id", SqlType.BIGINT),
          Column.of("o_cust", SqlType.BIGINT),
          Column.of("o_total", DECIMAL_15_2),
          Column.of("o_date", SqlType.DATE));

  /** {@code (c_id BIGINT NOT NULL, c_name VARCHAR, c_nation INTEGER)}. */
  public static final RowSchema CUSTOMERS =
      RowSchema.of(
          Column.notNull("c_id", SqlType.BIGINT),
          Column.of("c_name", SqlType.VARCHAR),
          Column.of("c_nation", SqlType.INTEGER));

  private PlanFixtures() {}

  /** 13 files of 1000 bytes: one in directory a/, twelve in b/ (the seed's lopsided groups). */
  public static TableSource orders() {
    List<SplitUnit> units = new ArrayList<>();
    units.add(SplitUnit.file("orders/a/part-0.parquet", 1000, 100));
    for (int i = 0; i < 12; i++) {
      units.add(SplitUnit.file("orders/b/part-" + i + ".parquet", 1000, 100));
    }
    return new TableSource("orders", ORDERS, units);
  }

  /** Two files of three row groups each, of unequal sizes. */
  public static TableSource customers() {
    long[] sizes = {4000, 1000, 500, 3000, 2500, 200};
    List<SplitUnit> units = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      units.add(SplitUnit.rowGroup("customers/part-" + i / 3 + ".parquet", i % 3, sizes[i], 50));
    }
    return new TableSource("customers", CUSTOMERS, units);
  }

  public static PlanBuilder orders(int tasks) {
    return PlanBuilder.scan(orders(), tasks);
  }

  public static PlanBuilder customers(int tasks) {
    return PlanBuilder.scan(customers(), tasks);
  }
}
