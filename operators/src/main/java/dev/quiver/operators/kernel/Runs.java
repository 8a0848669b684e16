package dev.quiver.operators.kernel;

/**
 * Indices that come in long ascending runs ({@code 5, 6, 7, 8, 20, 21, ...}), as a filter that
 * keeps most rows produces them, described as runs of consecutive source rows, so a take can copy
 * each run as one block instead of gathering value by value.
 *
 * <pre>
 *   indices  5 6 7 8 | 20 21 22 | 40          runs: (start 5, length 4) (20, 3) (40, 1)
 * </pre>
 */
final class Runs {
  /**
   * Block copies pay off once runs average this many rows: a copy costs a call and a few branches,
   * a gathered value a load and a store.
   */
  static final int MIN_AVERAGE_LENGTH = 16;

  final int[] starts;
  final int[] lengths;
  final int count;

  private Runs(int[] starts, int[] lengths, int count) {
    this.starts = starts;
    this.lengths = lengths;
    this.count = count;
  }

  /**
   * The runs of {@code indices[from .. from + count)}, or null when they average fewer than {@link
   * #MIN_AVERAGE_LENGTH} rows (then a gather is cheaper).
   */
  static Runs of(int[] indices, int from, int count) {
    if (count < MIN_AVERAGE_LENGTH) {
      return null;
    }
    int runs = 1;
    int end = from + count;
    int maxRuns = count / MIN_AVERAGE_LENGTH;
    // In blocks, so scattered indices (a join's build side) give up after a few blocks.
    for (int block = from + 1; block < end; block += 256) {
      for (int i = block, blockEnd = Math.min(end, block + 256); i < blockEnd; i++) {
        runs += indices[i] != indices[i - 1] + 1 ? 1 : 0;
      }
      if (runs > maxRuns) {
        return null;
      }
    }
    int[] starts = new int[runs];
    int[] lengths = new int[runs];
    int run = 0;
    starts[0] = indices[from];
    int length = 1;
    for (int i = from + 1; i < end; i++) {
      if (indices[i] == indices[i - 1] + 1) {
        length++;
      } else {
        lengths[run++] = length;
        starts[run] = indices[i];
        length = 1;
      }
    }
    lengths[run] = length;
    return new Runs(starts, lengths, runs);
  }
}
