package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.Operator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The input protocol of the join operators: input 0 (build) is buffered and finished before input 1
 * (probe) is used, every batch is checked against its side's schema, and close happens once.
 *
 * <p>Why: the hash join and the nested loop join differ only in what they do with the build rows
 * and a probe batch; keeping the protocol in one place keeps their checks and errors identical.
 */
abstract class BuildProbeJoin implements Operator {
  private final Schema buildSchema;
  private final Schema probeSchema;
  private boolean buildFinished;
  private boolean probeFinished;
  private boolean closed;

  /** The subclass checks the schemas for null, in the order its errors promise. */
  BuildProbeJoin(Schema buildSchema, Schema probeSchema) {
    this.buildSchema = buildSchema;
    this.probeSchema = probeSchema;
  }

  final Schema buildSchema() {
    return buildSchema;
  }

  /** Takes ownership of a build batch. */
  abstract void addBuild(VectorSchemaRoot batch);

  /** Joins a probe batch; the caller closes it. */
  abstract void probe(VectorSchemaRoot batch);

  /** Called once, when the build input is finished. */
  abstract void buildComplete();

  /** Called once, when the probe input is finished: emit what is left. */
  abstract void probeComplete();

  /** Called once, by the first {@link #close()}. */
  abstract void release();

  @Override
  public final int inputs() {
    return 2;
  }

  @Override
  public final void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    JoinInputs.checkAdd(
        this, input, batch, buildSchema, probeSchema, buildFinished, probeFinished, closed);
    if (input == 0) {
      addBuild(batch);
      return;
    }
    try (batch) {
      probe(batch);
    }
  }

  @Override
  public final void finish(int input) {
    JoinInputs.checkFinish(this, input, buildFinished, probeFinished, closed);
    if (input == 0) {
      buildFinished = true;
      buildComplete();
    } else {
      probeFinished = true;
      probeComplete();
    }
  }

  /** Emits the probe's pending output rows while the probe side runs (see {@link #flushOutput}). */
  @Override
  public final void flush() {
    if (!closed && buildFinished && !probeFinished) {
      flushOutput();
    }
  }

  /** Emits the output rows held to fill a batch, if any. */
  abstract void flushOutput();

  @Override
  public final void close() {
    if (closed) {
      return;
    }
    closed = true;
    release();
  }
}
