package dev.quiver.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compares the EXPLAIN of each plan in {@link GoldenPlans} with {@code
 * src/test/resources/explain/NAME.txt}, exactly. Each file holds the plan as built, the plan after
 * the default rewrites (only when they changed it) and the stage graph.
 *
 * <p>To accept new output after an intended change, run the tests with {@code
 * -Dquiver.golden.update=true}, which rewrites the files instead of comparing, and review the diff:
 *
 * <pre>
 *   mvn -B -o test -pl stage-graph -Dtest=ExplainGoldenTest -Dquiver.golden.update=true
 * </pre>
 */
class ExplainGoldenTest {
  private static final Path DIR = Path.of("src/test/resources/explain");
  private static final boolean UPDATE = Boolean.getBoolean("quiver.golden.update");

  static Stream<Arguments> plans() {
    return GoldenPlans.all().entrySet().stream()
        .map(entry -> Arguments.of(entry.getKey(), entry.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("plans")
  void explainMatchesGoldenFile(String name, Supplier<PlanNode> plan) throws IOException {
    check(name + ".txt", explain(plan.get()));
  }

  @Test
  void dotMatchesGoldenFile() throws IOException {
    StageGraph graph =
        StagePlanner.withDefaultRewrites().plan(GoldenPlans.nestedJoinOfAggregates());
    check("nested_join_of_aggregates.dot", graph.toDot());
  }

  /** A shared stage is one box, drawn bold, with an edge to each reader. */
  @Test
  void sharedStageDotMatchesGoldenFile() throws IOException {
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(GoldenPlans.sharedSubplan());
    check("shared_subplan.dot", graph.toDot());
  }

  static String explain(PlanNode plan) {
    StagePlanner planner = StagePlanner.withDefaultRewrites();
    PlanNode rewritten = planner.rewrite(plan);
    StringBuilder text = new StringBuilder("-- plan\n").append(PlanPrinter.explain(plan));
    if (rewritten != plan) {
      text.append("\n-- rewritten\n").append(PlanPrinter.explain(rewritten));
    }
    return text.append("\n-- stages\n").append(planner.plan(plan).explain()).toString();
  }

  private static void check(String file, String actual) throws IOException {
    Path path = DIR.resolve(file);
    if (UPDATE) {
      Files.createDirectories(DIR);
      Files.writeString(path, actual, StandardCharsets.UTF_8);
      return;
    }
    assertThat(path)
        .withFailMessage("%s is missing; run with -Dquiver.golden.update=true to create it", path)
        .exists();
    assertThat(actual).isEqualTo(Files.readString(path, StandardCharsets.UTF_8));
  }
}
