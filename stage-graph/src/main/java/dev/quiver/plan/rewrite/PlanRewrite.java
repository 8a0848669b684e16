package dev.quiver.plan.rewrite;

import dev.quiver.plan.node.PlanNode;

/**
 * One distributed-correctness pass over a physical plan, run before the plan is cut into stages. A
 * pass returns a valid, runnable plan with the same result schema: every node it builds is
 * validated like any other. Passes are independent, so a planner can run any subset (tests run none
 * to show the wrong answer a pass prevents).
 */
public interface PlanRewrite {
  /** A short name for errors and logs. */
  String name();

  PlanNode apply(PlanNode plan);
}
