package dev.quiver.operators.keyrange;

import static dev.quiver.plan.expr.Exprs.between;
import static dev.quiver.plan.expr.Exprs.cast;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which probe keys of a join lead to a column of a scan in the same stage. */
class ProbeKeyOriginsTest {
  private static final RowSchema SALES =
      RowSchema.of(
          Column.of("s_date", SqlType.INTEGER),
          Column.of("s_item", SqlType.BIGINT),
          Column.of("s_amount", SqlType.DOUBLE));
  private static final RowSchema DIM =
      RowSchema.of(Column.of("d_key", SqlType.INTEGER), Column.of("d_name", SqlType.VARCHAR));
  private static final RowSchema ITEMS =
      RowSchema.of(Column.of("i_key", SqlType.BIGINT), Column.of("i_name", SqlType.VARCHAR));

  private static PlanBuilder scan(String name, RowSchema schema) {
    return PlanBuilder.scan(
        new TableSource(name, schema, List.of(SplitUnit.file(name + "/p.parquet", 1000, 10))), 1);
  }

  private static PlanBuilder join(JoinType type, PlanBuilder build, PlanBuilder probe, int key) {
    return probe.hashJoin(type, build, keys(0), keys(key), JoinDistribution.BROADCAST);
  }

  private static List<ProbeKeyOrigins.Target> targets(PlanBuilder plan) {
    PlanNode root = plan.build();
    return ProbeKeyOrigins.of(root).targets((HashJoin) root);
  }

  @Test
  void aKeyReadThroughFiltersAndProjectionsLeadsToTheScanColumn() {
    PlanBuilder sales = scan("sales", SALES);
    PlanBuilder probe = sales.filter(between(sales.col(2), lit(1.0), lit(9.0))).select(2, 0, 1);
    assertThat(targets(join(JoinType.INNER, scan("dim", DIM), probe, 1)))
        .containsExactly(new ProbeKeyOrigins.Target(0, "sales", 0));
  }

  @Test
  void throughTheProbeSideOfAnotherJoin() {
    PlanBuilder inner = join(JoinType.INNER, scan("dim", DIM), scan("sales", SALES), 0);
    // inner's output: s_date, s_item, s_amount, d_key, d_name; s_item is column 1
    assertThat(targets(join(JoinType.LEFT_SEMI, scan("items", ITEMS), inner, 1)))
        .containsExactly(new ProbeKeyOrigins.Target(0, "sales", 1));
    // d_key comes from inner's build side: not followed
    assertThat(targets(join(JoinType.INNER, scan("dim2", DIM), inner, 3))).isEmpty();
  }

  @Test
  void joinsThatKeepUnmatchedProbeRowsPublishNothing() {
    for (JoinType type :
        List.of(JoinType.LEFT, JoinType.FULL, JoinType.LEFT_ANTI, JoinType.LEFT_MARK)) {
      assertThat(targets(join(type, scan("dim", DIM), scan("sales", SALES), 0)))
          .as("%s", type)
          .isEmpty();
    }
    for (JoinType type :
        List.of(
            JoinType.INNER,
            JoinType.RIGHT,
            JoinType.LEFT_SEMI,
            JoinType.RIGHT_SEMI,
            JoinType.RIGHT_ANTI)) {
      assertThat(targets(join(type, scan("dim", DIM), scan("sales", SALES), 0)))
          .as("%s", type)
          .hasSize(1);
    }
    PlanBuilder nullAware =
        scan("sales", SALES)
            .hashJoin(
                JoinKind.nullAware(JoinType.LEFT_ANTI),
                scan("dim", DIM),
                keys(0),
                keys(0),
                null,
                JoinDistribution.BROADCAST);
    assertThat(targets(nullAware)).isEmpty();
  }

  @Test
  void computedKeysOtherTypesAndTablesScannedTwicePublishNothing() {
    PlanBuilder sales = scan("sales", SALES);
    PlanBuilder computed =
        sales.project(
            List.of(cast(sales.col(1), SqlType.INTEGER), sales.col(2)), List.of("k", "amount"));
    assertThat(targets(join(JoinType.INNER, scan("dim", DIM), computed, 0))).isEmpty();

    PlanBuilder byName = scan("items", ITEMS);
    PlanBuilder names = byName.select(1);
    assertThat(
            targets(
                names.hashJoin(
                    JoinType.INNER,
                    scan("items2", ITEMS),
                    keys(1),
                    keys(0),
                    JoinDistribution.BROADCAST)))
        .as("VARCHAR keys have no range")
        .isEmpty();

    PlanBuilder twice =
        join(JoinType.INNER, scan("sales", SALES).select(0), scan("sales", SALES), 0);
    assertThat(targets(twice)).as("sales is scanned twice in the stage").isEmpty();
  }
}
