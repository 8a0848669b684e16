package dev.quiver.plan.node;

import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;
import static dev.quiver.plan.node.PlanFixtures.orders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.sort.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every exchange is an {@link Exchange} and describes its data movement as a distribution. */
class ExchangeTest {
  @Test
  void everyExchangeCarriesItsDistribution() {
    PlanBuilder scan = orders(4);
    assertThat(distribution(scan.repartition(hash(1), 3)))
        .isEqualTo(Distribution.hash(keys(1), 3))
        .hasToString("hash([#1], 3)");
    assertThat(distribution(scan.repartition(PlanBuilder.roundRobin(), 2)))
        .isEqualTo(Distribution.roundRobin(2));
    assertThat(distribution(scan.coalesce(1))).isEqualTo(Distribution.rescale(1));
    assertThat(distribution(scan.sort(SortKey.asc(0)).merge()))
        .isEqualTo(Distribution.merge(List.of(SortKey.asc(0))));
    assertThat(new Broadcast(scan.build()).distribution()).isEqualTo(Distribution.broadcast());
  }

  @Test
  void gathersAreTheDistributionsIntoOneReadingTask() {
    assertThat(Distribution.rescale(1).gathers()).isTrue();
    assertThat(Distribution.merge(List.of(SortKey.asc(0))).gathers()).isTrue();
    assertThat(Distribution.rescale(2).gathers()).isFalse();
    assertThat(Distribution.broadcast().gathers()).isFalse();
  }

  @Test
  void exchangeAsFindsExchangesOnly() {
    PlanBuilder scan = orders(4);
    assertThat(Exchange.as(scan.build())).isNull();
    assertThat(Exchange.as(scan.coalesce(2).build())).isInstanceOf(Coalesce.class);
    assertThat(Broadcast.is(new Broadcast(scan.build()))).isTrue();
    assertThat(Broadcast.is(scan.coalesce(1).build())).isFalse();
  }

  @Test
  void withInputRebuildsTheSameExchange() {
    Exchange exchange = (Exchange) orders(4).repartition(hash(0), 2).build();
    PlanNode other = orders(3).build();
    Exchange rebuilt = exchange.withInput(other);
    assertThat(rebuilt.input()).isSameAs(other);
    assertThat(rebuilt.distribution()).isEqualTo(exchange.distribution());
  }

  private static Distribution distribution(PlanBuilder plan) {
    return Exchange.as(plan.build()).distribution();
  }
}
