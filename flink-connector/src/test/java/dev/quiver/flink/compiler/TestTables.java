package dev.quiver.flink.compiler;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Generated rows for plans over VALUES, and the same rows as plain Java lists for the reference
 * answers: row {@code id} has key {@code key(id)} (53 distinct keys, NULL for every 17th id), a
 * string derived from the key, and an amount {@code id % 100}.
 */
final class TestTables {
  static final int ID = 0;
  static final int KEY = 1;
  static final int NAME = 2;
  static final int AMOUNT = 3;
  static final RowSchema SCHEMA =
      RowSchema.of(
          Column.notNull("id", SqlType.BIGINT),
          Column.of("k", SqlType.BIGINT),
          Column.of("s", SqlType.VARCHAR),
          Column.notNull("amount", SqlType.BIGINT));

  private TestTables() {}

  static Long key(long id) {
    return id % 17 == 0 ? null : Math.floorMod(id * 2654435761L, 53L);
  }

  /** Rows {@code from .. from + count - 1}. */
  static List<List<Object>> rows(long from, int count) {
    List<List<Object>> rows = new ArrayList<>(count);
    for (long id = from; id < from + count; id++) {
      Long key = key(id);
      rows.add(Arrays.asList(id, key, key == null ? null : "s" + key % 7, id % 100));
    }
    return rows;
  }

  /**
   * The rows as a UNION ALL of {@code pieces} VALUES nodes: one partition that arrives in {@code
   * pieces} batches, so a round-robin repartition can spread it.
   */
  static PlanBuilder table(long from, int count, int pieces) {
    List<PlanBuilder> parts = new ArrayList<>();
    for (int i = 0; i < pieces; i++) {
      long start = from + (long) count * i / pieces;
      long end = from + (long) count * (i + 1) / pieces;
      parts.add(PlanBuilder.values(SCHEMA, rows(start, (int) (end - start))));
    }
    return parts.get(0).union(parts.subList(1, parts.size()).toArray(new PlanBuilder[0]));
  }

  /** The rows spread round-robin over {@code partitions} partitions (8 batches dealt out). */
  static PlanBuilder spread(long from, int count, int partitions) {
    return table(from, count, 8).repartition(PlanBuilder.roundRobin(), partitions);
  }
}
