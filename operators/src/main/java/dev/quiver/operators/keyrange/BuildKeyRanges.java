package dev.quiver.operators.keyrange;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What one hash join publishes for the scans of its task: the {@link KeyRange} of each build key
 * that has a {@linkplain ProbeKeyOrigins target}, gathered while the build side is read and
 * published to {@link TaskKeyRanges} once it is complete, before the first probe batch is read.
 * Costs one pass over the build key columns.
 */
public final class BuildKeyRanges {
  private static final BuildKeyRanges NONE = new BuildKeyRanges(List.of(), List.of());

  private final List<ProbeKeyOrigins.Target> targets;
  private final int[] columns;
  private final KeyRangeBuilder[] builders;

  /**
   * Ranges for {@code targets} of a join whose build key {@code i} is column {@code
   * buildKeys.get(i)} of its build side.
   */
  public BuildKeyRanges(List<ProbeKeyOrigins.Target> targets, List<Integer> buildKeys) {
    this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
    requireNonNull(buildKeys, "buildKeys is null");
    this.columns = new int[this.targets.size()];
    this.builders = new KeyRangeBuilder[this.targets.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = buildKeys.get(this.targets.get(i).buildKey());
      builders[i] = new KeyRangeBuilder();
    }
  }

  /** Publishes nothing. */
  public static BuildKeyRanges none() {
    return NONE;
  }

  /** Adds the keys of one build batch. */
  public void add(VectorSchemaRoot batch) {
    for (int i = 0; i < columns.length; i++) {
      builders[i].add(batch.getVector(columns[i]), batch.getRowCount());
    }
  }

  /** Publishes the ranges of the keys added (an empty range if none was non-NULL). */
  public void publish() {
    for (int i = 0; i < columns.length; i++) {
      KeyRange range = builders[i].range();
      if (range != null) {
        ProbeKeyOrigins.Target target = targets.get(i);
        TaskKeyRanges.publish(target.table(), target.column(), range);
      }
    }
  }

  @Override
  public String toString() {
    return "BuildKeyRanges" + targets;
  }
}
