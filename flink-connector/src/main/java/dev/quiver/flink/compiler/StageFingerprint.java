package dev.quiver.flink.compiler;

import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.node.Window;
import dev.quiver.stage.Stage;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A short digest of what a stage's checkpointed state means, part of the stage's operator uid, so
 * that a savepoint restores into a stage only when the stage keeps the same kind of state: the same
 * operators in the same shape, over rows of the same column types, the same aggregates, joins,
 * window functions and sorts (their keys and calls), reading the same tables. A savepoint of
 * another query whose stages happen to have the same ids and task counts then holds state that no
 * operator of the new job claims, which the restore refuses with one line before the job starts,
 * instead of the stage failing on (or silently misreading) a state it does not understand.
 *
 * <p>Left out on purpose: filter and projection expressions and column names, which change no state
 * layout (fixing a filter's constant keeps the savepoint usable), and a scan's splits and sizes,
 * which change with the data.
 */
final class StageFingerprint {
  private StageFingerprint() {}

  /** Twelve hex digits of the SHA-256 of {@code stage}'s state shape. */
  static String of(Stage stage) {
    StringBuilder shape = new StringBuilder();
    describe(stage.plan(), shape);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(shape.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static void describe(PlanNode node, StringBuilder out) {
    out.append(node.getClass().getSimpleName()).append('(');
    for (Column column : node.schema().columns()) {
      out.append(column.type()).append(column.nullable() ? "?" : "").append(',');
    }
    out.append(')');
    if (node instanceof Scan scan) {
      out.append(scan.source().name());
    } else if (keepsState(node)) {
      out.append(node); // keys, calls, join kinds, window ends: what the state is
    }
    out.append('[');
    for (PlanNode child : node.children()) {
      describe(child, out);
    }
    out.append(']');
  }

  private static boolean keepsState(PlanNode node) {
    return node instanceof Aggregate
        || node instanceof HashJoin
        || node instanceof NestedLoopJoin
        || node instanceof Window
        || node instanceof Sort
        || node instanceof TopK;
  }
}
