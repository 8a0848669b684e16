package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Coalesce;
import dev.quiver.plan.node.Exchange;
import dev.quiver.plan.node.Expand;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanVisitor;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.RepeatRows;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.StageInput;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.node.Union;
import dev.quiver.plan.node.Values;
import dev.quiver.plan.node.Window;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Marks the subplans a query computes more than once so that the stage cutter makes each one stage
 * that several consumers read. A CTE referenced N times reaches the planner as N equal subtrees
 * (Calcite inlines WITH); plan nodes compare structurally ({@link PlanNode#equals}), so equal
 * subtrees are found by hashing.
 *
 * <p>Which subtrees: the largest repeated ones. Distinct subtrees are visited parents first, each
 * with the number of times it would run: the sum over its occurrences of the runs of the parent
 * there, where a parent that is itself shared runs once. A subtree that runs twice or more is
 * shared
 *
 * <ul>
 *   <li>for free when it is an exchange: the cutter already makes its input a stage, and equal
 *       stages become one (nothing is inserted here);
 *   <li>otherwise when materializing it is cheaper than recomputing it ({@link
 *       #worthMaterializing}): a {@code Coalesce[n -> n]} is put above every occurrence, an
 *       exchange that moves nothing (partitioning and ordering pass through), at which the cutter
 *       cuts a stage read FORWARD.
 * </ul>
 *
 * <pre>
 *   Filter[a]           Filter[b]             Filter[a]          Filter[b]
 *     Aggregate  ...      Aggregate   ─►        Coalesce[2 -> 2]   Coalesce[2 -> 2]
 *       (X)                 (X)                   Aggregate (X)      Aggregate (X)    ═ one stage
 * </pre>
 *
 * <p>The cost rule: recomputing is cheaper when the subtree is a pipeline of row-at-a-time
 * operators (filter, project, limit, expand, repeat, union) over scans and VALUES, whatever it
 * reads. Such a pipeline streams inside its consumer's tasks (chained, no memory held, no wait),
 * and what it reads it decodes about as fast as a shared stage would write its output and every
 * consumer read it back; a cut there would also make each consumer wait for the whole output (a
 * blocking edge instead of a chained pipeline) and cost a stage. Anything with an exchange, a join,
 * an aggregate, a window, a sort or a top-k is materialized: that work (hash tables, sorts, rows
 * moved between tasks) costs more than writing its output once and reading it back.
 *
 * <p>A sort right below a window over event-time windows ({@link Window#windowEnd}) is never cut
 * from it: over a stream the two run together, once per complete window; the sort alone would wait
 * for the end of the stream. Its input, if repeated, is still computed once.
 *
 * <p>Returns a runnable plan: the inserted coalesces change nothing but where stages are cut.
 */
public final class SharedSubplans {
  public SharedSubplans() {}

  /** {@code plan} with a FORWARD cut above every subtree worth computing once. */
  public PlanNode apply(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    Map<PlanNode, Integer> shared = sharedSubtrees(plan);
    return withCuts(plan, shared, new HashMap<>());
  }

  /** The repeated subtrees to cut, with their run counts (only those worth materializing). */
  private Map<PlanNode, Integer> sharedSubtrees(PlanNode plan) {
    Map<PlanNode, Integer> heights = new LinkedHashMap<>();
    height(plan, heights);
    List<PlanNode> parentsFirst = new ArrayList<>(heights.keySet());
    parentsFirst.sort(Comparator.comparing(heights::get, Comparator.reverseOrder()));
    Map<PlanNode, Integer> runs = new HashMap<>();
    runs.put(plan, 1);
    Map<PlanNode, Integer> shared = new HashMap<>();
    Set<PlanNode> perWindow = new HashSet<>();
    for (PlanNode node : parentsFirst) {
      if (node instanceof Window window
          && window.windowEnd().isPresent()
          && window.input() instanceof Sort sort) {
        perWindow.add(sort); // runs inside its window's per-window operator: no stage of its own
      }
      int times = runs.getOrDefault(node, 0);
      boolean once = false;
      if (times >= 2 && !perWindow.contains(node)) {
        if (Exchange.as(node) != null) {
          once = true; // the cutter shares equal exchange inputs by itself
        } else if (worthMaterializing(node)) {
          once = true;
          shared.put(node, times);
        }
      }
      int perChild = once ? 1 : times;
      for (PlanNode child : node.children()) {
        runs.merge(child, perChild, Integer::sum);
      }
    }
    return shared;
  }

  /** The height of {@code node}'s subtree, recording every distinct subtree's. */
  private static int height(PlanNode node, Map<PlanNode, Integer> heights) {
    Integer known = heights.get(node);
    if (known != null) {
      return known;
    }
    int height = 0;
    for (PlanNode child : node.children()) {
      height = Math.max(height, height(child, heights) + 1);
    }
    heights.put(node, height);
    return height;
  }

  private static PlanNode withCuts(
      PlanNode node, Map<PlanNode, Integer> shared, Map<PlanNode, PlanNode> done) {
    PlanNode known = done.get(node);
    if (known != null) {
      return known;
    }
    List<PlanNode> children = new ArrayList<>();
    for (PlanNode child : node.children()) {
      children.add(withCuts(child, shared, done));
    }
    PlanNode rebuilt = node.withChildren(children);
    if (shared.containsKey(node)) {
      rebuilt = new Coalesce(rebuilt, rebuilt.partitions());
    }
    done.put(node, rebuilt);
    return rebuilt;
  }

  /** The cost rule (see the class comment): whether computing {@code node} once pays. */
  static boolean worthMaterializing(PlanNode node) {
    return !node.accept(new RowAtATime());
  }

  /** Whether a subtree only streams rows from its scans and VALUES, row at a time. */
  private static final class RowAtATime implements PlanVisitor<Boolean> {
    private boolean children(PlanNode node) {
      for (PlanNode child : node.children()) {
        if (!child.accept(this)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public Boolean visitScan(Scan node) {
      return true;
    }

    @Override
    public Boolean visitValues(Values node) {
      return true;
    }

    @Override
    public Boolean visitFilter(Filter node) {
      return children(node);
    }

    @Override
    public Boolean visitProject(Project node) {
      return children(node);
    }

    @Override
    public Boolean visitLimit(Limit node) {
      return children(node);
    }

    @Override
    public Boolean visitExpand(Expand node) {
      return children(node);
    }

    @Override
    public Boolean visitRepeatRows(RepeatRows node) {
      return children(node);
    }

    @Override
    public Boolean visitUnion(Union node) {
      return children(node);
    }

    @Override
    public Boolean visitAggregate(Aggregate node) {
      return false;
    }

    @Override
    public Boolean visitHashJoin(HashJoin node) {
      return false;
    }

    @Override
    public Boolean visitNestedLoopJoin(NestedLoopJoin node) {
      return false;
    }

    @Override
    public Boolean visitSort(Sort node) {
      return false;
    }

    @Override
    public Boolean visitTopK(TopK node) {
      return false;
    }

    @Override
    public Boolean visitWindow(Window node) {
      return false;
    }

    @Override
    public Boolean visitExchange(Exchange node) {
      return false;
    }

    @Override
    public Boolean visitStageInput(StageInput node) {
      throw new IllegalArgumentException("the plan is already cut into stages: " + node);
    }
  }
}
