package dev.quiver.operators.join;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A hash join whose build side did not fit in the budget: a grace hash join over spill files.
 *
 * <pre>
 *   build rows ─► JoinPartitions level 0: 32 build files ─┐ (all written before the first probe)
 *   probe rows ─► the same hash, the same 32 probe files ──┤
 *   end of probe: for each partition p ─► load p's build file ─► fits? ─► InMemoryJoin, stream
 *       p's probe file through it, emit p's unmatched build rows ─► delete p's files
 *     refused ─► split p's build rows, then its probe rows, into 32 partitions of level + 1
 *       (another seed) and join each of those the same way; one key hash: MEMORY_BUDGET_EXCEEDED
 * </pre>
 *
 * <p>Every partition is joined with what the whole build input was ({@link
 * InMemoryJoin.BuildFacts}: rows, a NULL key), so null-aware joins stay correct per partition.
 * Partitions share one {@link JoinOutput}, whose batches therefore stay full. Files are deleted as
 * soon as they are read; what is left on failure is deleted by {@link #close} (level 0) or by the
 * level that made them.
 */
final class GraceJoin implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GraceJoin.class);

  private final HashJoinSpec spec;
  private final JoinOutput output;
  private final JoinPartitions top;
  private InMemoryJoin.BuildFacts facts;
  private boolean dropsProbe;
  private long headroom; // reserved while a partition is loaded (see HashJoinSpec.headroom)

  GraceJoin(HashJoinSpec spec, JoinOutput output) {
    this.spec = spec;
    this.output = output;
    this.top = new JoinPartitions(spec, 0);
  }

  /** Spills the rows of a build batch; the caller keeps it. */
  void addBuild(VectorSchemaRoot batch) {
    top.addBuild(batch);
  }

  void buildComplete() {
    top.finishBuild();
    facts = top.facts();
    // NOT IN against a NULL emits nothing: no need to spill a single probe row.
    dropsProbe = spec.emitsNothing(facts.rows(), facts.hasNullKey());
    LOG.info(
        "{} spilled its {} build rows into {} partitions; probe rows follow them",
        spec.owner(),
        facts.rows(),
        JoinPartitions.COUNT);
  }

  /** Spills the rows of a probe batch; the caller keeps it. */
  void probe(VectorSchemaRoot batch) {
    if (!dropsProbe) {
      top.addProbe(batch);
    }
  }

  /** Joins every partition. */
  void probeComplete() {
    top.finishProbe();
    drain(top);
  }

  private void drain(JoinPartitions level) {
    for (JoinPartitions.Partition next = level.next(); next != null; next = level.next()) {
      try (JoinPartitions.Partition partition = next) {
        join(partition, level);
      }
    }
  }

  /** Joins one partition in memory, or splits it when the budget refuses its build side. */
  private void join(JoinPartitions.Partition partition, JoinPartitions level) {
    BuildBuffer build = new BuildBuffer(spec.context().budget(), spec.owner());
    try (InMemoryJoin join = new InMemoryJoin(spec, build, output)) {
      reserveHeadroom();
      if (!load(partition, build, level)) {
        return;
      }
      if (join.tryBuild(facts) != null) {
        split(partition, level, build, null, null);
        return;
      }
      releaseHeadroom();
      SpillFile probe = partition.probe();
      if (probe != null) {
        try (SpillReader reader = probe.open(spec.context().allocator())) {
          for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
            try (VectorSchemaRoot batch = next) {
              join.probe(batch);
            }
          }
        }
        probe.close(); // read: its disk space is free now
      }
      join.finish();
    } finally {
      releaseHeadroom();
    }
  }

  private void reserveHeadroom() {
    long bytes = spec.headroom();
    if (spec.context().budget().tryReserve(bytes)) {
      headroom = bytes;
    }
  }

  private void releaseHeadroom() {
    spec.context().budget().release(headroom);
    headroom = 0;
  }

  /** Reads the partition's build rows into {@code build}; false when it had to split instead. */
  private boolean load(
      JoinPartitions.Partition partition, BuildBuffer build, JoinPartitions level) {
    SpillFile file = partition.build();
    if (file == null) {
      return true;
    }
    try (SpillReader reader = file.open(spec.context().allocator())) {
      for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
        boolean kept;
        try {
          kept = build.tryAdd(next);
        } catch (RuntimeException | Error e) {
          next.close();
          throw e;
        }
        if (!kept) {
          try (VectorSchemaRoot refused = next) {
            split(partition, level, build, refused, reader);
          }
          return false;
        }
      }
    }
    file.close();
    return true;
  }

  /**
   * Splits a partition that does not fit into the next level's partitions: the build rows held in
   * {@code build} (released right after), {@code pending} and what is left in {@code rest}, then
   * its probe rows; and joins each of them.
   */
  private void split(
      JoinPartitions.Partition partition,
      JoinPartitions level,
      BuildBuffer build,
      VectorSchemaRoot pending,
      SpillReader rest) {
    releaseHeadroom();
    try (JoinPartitions child = level.child()) {
      for (VectorSchemaRoot batch : build.batches()) {
        child.addBuild(batch);
      }
      build.close(); // give the budget back before the sub-partitions need it
      if (pending != null) {
        child.addBuild(pending);
      }
      for (VectorSchemaRoot next = rest == null ? null : rest.next();
          next != null;
          next = rest.next()) {
        try (VectorSchemaRoot batch = next) {
          child.addBuild(batch);
        }
      }
      if (partition.build() != null) {
        partition.build().close();
      }
      child.finishBuild();
      if (child.oneKeyHash()) {
        throw new QuiverException(
            ErrorCode.MEMORY_BUDGET_EXCEEDED,
            spec.owner()
                + " cannot join "
                + partition.buildRows()
                + " build rows of one key within its "
                + spec.context().budget().limit()
                + "-byte memory budget: a partition of the grace hash join cannot be split any"
                + " further; give the task more memory or use more tasks");
      }
      LOG.debug(
          "{} splits a partition of {} build rows at level {}",
          spec.owner(),
          partition.buildRows(),
          child.level());
      SpillFile probe = partition.probe();
      if (probe != null) {
        try (SpillReader reader = probe.open(spec.context().allocator())) {
          for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
            try (VectorSchemaRoot batch = next) {
              child.addProbe(batch);
            }
          }
        }
        probe.close();
      }
      child.finishProbe();
      drain(child);
    }
  }

  /** Deletes every spill file left (a failure or an early close). Idempotent. */
  @Override
  public void close() {
    releaseHeadroom();
    top.close();
  }
}
