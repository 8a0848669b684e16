package dev.quiver.plan.node;

/**
 * How a task of a consumer stage reads the output of a producer stage.
 *
 * <pre>
 *   mode       consumer task p reads                                  Flink
 *   FORWARD    producer partition p (same task count)                 forward()
 *   SHUFFLE    channel p of every producer partition                  partitionCustom on channel
 *   BROADCAST  every channel of every producer partition              broadcast()
 *   MERGE      every producer partition, merged in key order (1 task) global() + k-way merge
 *   RESCALE    a contiguous range of producer partitions              rescale()
 * </pre>
 */
public enum InputMode {
  FORWARD,
  SHUFFLE,
  BROADCAST,
  MERGE,
  RESCALE
}
