package dev.quiver.flink.compiler;

import static dev.quiver.flink.compiler.TestTables.spread;
import static dev.quiver.flink.compiler.TestTables.table;
import static dev.quiver.plan.expr.Exprs.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a query's job ends when the caller stops early or a task fails. Closing a result early
 * cancels the job: a cross join of 800 × 800 rows (640,000 result rows, far more than the collect
 * sink buffers, so the job cannot finish while nobody reads) is abandoned after its first batch.
 * The leak check then proves every task released its memory.
 */
@ExtendWith(ArrowLeakCheck.class)
class QueryLifecycleTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  @Test
  void closingTheResultEarlyCancelsTheJob(BufferAllocator allocator) throws Exception {
    PlanNode crossJoin =
        spread(10_000, 800, 2).nestedLoopJoin(JoinType.INNER, table(0, 800, 2), null).build();
    QueryResult result =
        JobRunner.withDefaults()
            .run(FlinkTestJobs.batchEnvironment(), crossJoin, allocator, "cancel me");
    try (result) {
      assertThat(result.hasNext()).isTrue();
      try (VectorSchemaRoot first = result.next()) {
        assertThat(first.getRowCount()).isPositive();
      }
    }
    assertThat(result.finalStatus()).isEqualTo(JobStatus.CANCELED);
    assertThat(result.hasNext()).isFalse();
  }

  /**
   * Closing while the stage tasks still compute (they hold the join's build side and output batches
   * in Arrow memory) cancels them, and they release it all.
   */
  @Test
  void closingWhileTasksRunCancelsThem(BufferAllocator allocator) throws Exception {
    PlanNode crossJoin =
        spread(10_000, 3000, 2).nestedLoopJoin(JoinType.INNER, table(0, 3000, 2), null).build();
    QueryResult result =
        JobRunner.withDefaults()
            .run(FlinkTestJobs.batchEnvironment(), crossJoin, allocator, "cancel me early");
    try (result) {
      while (result.jobClient().getJobStatus().get() != JobStatus.RUNNING) {
        Thread.sleep(10);
      }
      Thread.sleep(500); // into the 9 million row join
    }
    assertThat(result.finalStatus()).isEqualTo(JobStatus.CANCELED);
  }

  /**
   * A task that fails (a division by zero) fails the query with its error, and frees its memory.
   */
  @Test
  void aFailingTaskFailsTheQuery(BufferAllocator allocator) throws Exception {
    PlanBuilder orders = spread(0, 1000, 2);
    PlanNode plan =
        orders
            .project(
                List.of(
                    call(
                        ScalarFunction.DIVIDE,
                        orders.col(TestTables.ID),
                        call(
                            ScalarFunction.SUBTRACT,
                            orders.col(TestTables.AMOUNT),
                            orders.col(TestTables.AMOUNT)))),
                List.of("boom"))
            .build();
    QueryResult result =
        JobRunner.withDefaults().run(FlinkTestJobs.batchEnvironment(), plan, allocator, "fail");
    try (result) {
      assertThatThrownBy(
              () -> {
                while (result.hasNext()) {
                  result.next().close();
                }
              })
          .hasStackTraceContaining("division by zero");
    }
    assertThat(result.finalStatus()).isEqualTo(JobStatus.FAILED);
  }
}
