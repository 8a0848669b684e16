package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.plan.distribute.SpreadUnbalancedScans;
import org.junit.jupiter.api.Test;

class PlannerOptionsTest {
  @Test
  void scansAreSpreadOnlyWhereTheTasksHaveMoreCoresThanOneScanDecodesOn() {
    assertThat(PlannerOptions.spreadThresholdFor(1)).isEqualTo(Long.MAX_VALUE);
    assertThat(PlannerOptions.spreadThresholdFor(2)).isEqualTo(Long.MAX_VALUE);
    assertThat(PlannerOptions.spreadThresholdFor(3))
        .isEqualTo(SpreadUnbalancedScans.DEFAULT_MIN_EXCESS_BYTES);
    assertThat(PlannerOptions.spreadThresholdFor(16))
        .isEqualTo(SpreadUnbalancedScans.DEFAULT_MIN_EXCESS_BYTES);
  }

  @Test
  void keepsTheSpreadThresholdThroughOtherChangesAndRejectsNegatives() {
    PlannerOptions options = PlannerOptions.of(4).withSpreadThreshold(0).withBroadcastThreshold(5);
    assertThat(options.spreadThresholdBytes()).isZero();
    assertThat(options.broadcastThresholdBytes()).isEqualTo(5);
    assertThatThrownBy(() -> new PlannerOptions(2, 0, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
