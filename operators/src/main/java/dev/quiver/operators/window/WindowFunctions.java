package dev.quiver.operators.window;

import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** Computes the calls of one window over one {@link Region}; calls with equal frames share them. */
final class WindowFunctions {
  private final Region region;
  private final FieldVector orderKey;
  private final SortKey key;
  private final BufferAllocator allocator;
  private final Map<WindowFrame, Frames> frames = new HashMap<>();

  WindowFunctions(
      Region region, FieldVector orderKey, List<SortKey> orderKeys, BufferAllocator allocator) {
    this.region = region;
    this.orderKey = orderKey;
    this.key = orderKeys.isEmpty() ? null : orderKeys.get(0);
    this.allocator = allocator;
  }

  /** The result column of {@code call}, a new vector of {@code field} owned by the caller. */
  FieldVector compute(WindowCall call, Field field) {
    switch (call.function()) {
      case ROW_NUMBER:
      case RANK:
      case DENSE_RANK:
      case NTILE:
        return ResultVectors.longs(field, RankFunctions.longs(call, region), null, allocator);
      case PERCENT_RANK:
      case CUME_DIST:
        return ResultVectors.doubles(field, RankFunctions.doubles(call, region), null, allocator);
      case LAG:
      case LEAD:
        return ValueFunctions.compute(call, region, null, field, allocator);
      case COUNT_STAR:
      case COUNT:
      case SUM:
      case AVG:
        return FrameAggregates.compute(call, region, frames(call.frame()), field, allocator);
      default:
        return ValueFunctions.compute(call, region, frames(call.frame()), field, allocator);
    }
  }

  private Frames frames(WindowFrame frame) {
    return frames.computeIfAbsent(frame, f -> Frames.of(f, region, orderKey, key));
  }
}
