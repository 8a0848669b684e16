package dev.quiver.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.Values;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Stage plans travel inside Flink jobs: Java serialization keeps everything a stage holds. */
class StageGraphSerializationTest {
  @Test
  void everyGoldenStageGraphSurvivesARoundTrip() throws Exception {
    for (Map.Entry<String, Supplier<PlanNode>> entry : GoldenPlans.all().entrySet()) {
      StageGraph graph = StagePlanner.withDefaultRewrites().plan(entry.getValue().get());
      StageGraph copy = roundTrip(graph);
      assertThat(copy.explain()).as(entry.getKey()).isEqualTo(graph.explain());
      assertThat(copy.schema()).isEqualTo(graph.schema());
      for (Stage stage : graph.stages()) {
        Stage restored = copy.stage(stage.id());
        assertThat(restored.distribution()).isEqualTo(stage.distribution());
        assertThat(restored.plan().schema().toArrow()).isEqualTo(stage.plan().arrowSchema());
        assertThat(PlanPrinter.explain(restored.plan()))
            .isEqualTo(PlanPrinter.explain(stage.plan()));
      }
    }
  }

  @Test
  void expressionsLiteralsAndJoinKindsComeBackEqual() throws Exception {
    HashJoin join = (HashJoin) GoldenPlans.joinBroadcast();
    HashJoin copy = roundTrip(join);
    assertThat(copy.residual()).isEqualTo(join.residual());
    assertThat(copy.kind()).isEqualTo(join.kind());
    assertThat(copy.residual().type()).isEqualTo(join.residual().type());

    Values values = (Values) GoldenPlans.collectLeftFullJoin().child(0);
    assertThat(roundTrip(values).rows()).isEqualTo(values.rows());
  }

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    }
  }
}
