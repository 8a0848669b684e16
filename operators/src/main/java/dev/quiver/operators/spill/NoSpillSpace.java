package dev.quiver.operators.spill;

import org.apache.arrow.vector.types.pojo.Schema;

/** {@link SpillSpace#NONE}: spills nothing, so a full budget stays an error. */
final class NoSpillSpace implements SpillSpace {
  @Override
  public boolean canSpill() {
    return false;
  }

  @Override
  public SpillWriter create(Schema schema, String purpose) {
    throw new IllegalStateException("this task has no spill space: it cannot spill " + purpose);
  }

  @Override
  public SpillStore openStore(String purpose) {
    throw new IllegalStateException("this task has no spill space: it cannot keep " + purpose);
  }

  @Override
  public long spilledBytes() {
    return 0;
  }

  @Override
  public long spilledRows() {
    return 0;
  }

  @Override
  public long spilledFiles() {
    return 0;
  }

  @Override
  public String toString() {
    return "SpillSpace.NONE";
  }
}
