package dev.quiver.benchmarks.run;

import dev.quiver.operators.memory.Allocators;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * The JVM's peak heap: the sum of every heap pool's peak usage since the last {@link #reset()} (an
 * upper bound of the true peak, as the pools may peak at different moments), and Arrow's peak
 * off-heap allocation (the root allocator's, for the whole run).
 */
final class HeapPeaks {
  private HeapPeaks() {}

  static void reset() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        pool.resetPeakUsage();
      }
    }
  }

  static long heapPeakBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  static long arrowPeakBytes() {
    return Allocators.root().getPeakMemoryAllocation();
  }

  static long maxHeapBytes() {
    return Runtime.getRuntime().maxMemory();
  }
}
