package dev.quiver.state.spill;

import dev.quiver.operators.spill.SpillWriter;
import dev.quiver.testing.RandomBatches;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A process that spills one batch under {@code args[0]}, prints its spill directory, and holds it
 * until its standard input ends (or it is killed): the other side of {@link OrphanedSpillsTest}.
 */
public final class SpillingProcess {
  private SpillingProcess() {}

  public static void main(String[] args) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
        FileSpillSpace space = new FileSpillSpace(List.of(Path.of(args[0])), "child");
        SpillWriter writer = space.create(RandomBatches.ALL_TYPES, "held");
        VectorSchemaRoot batch =
            new RandomBatches(1).batch(RandomBatches.ALL_TYPES, 1000, allocator)) {
      writer.write(batch);
      System.out.println(space.directories().get(0));
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the directory until the parent closes our input
      }
    }
  }
}
