package dev.quiver.plan.window;

/**
 * The SQL window functions Quiver executes, with what each takes. {@link #usesFrame()} says whether
 * the call's {@link WindowFrame} matters; ranking, distribution and offset functions look at the
 * whole partition (and its peer groups) whatever the frame.
 */
public enum WindowFunction {
  ROW_NUMBER("row_number", 0, 0, false),
  RANK("rank", 0, 0, false),
  DENSE_RANK("dense_rank", 0, 0, false),
  PERCENT_RANK("percent_rank", 0, 0, false),
  CUME_DIST("cume_dist", 0, 0, false),
  /** {@code NTILE(n)}: n, the bucket count, is the call's parameter. */
  NTILE("ntile", 0, 0, false),
  /** {@code LAG(x, offset, default)}: arguments x and optionally default; offset the parameter. */
  LAG("lag", 1, 2, false),
  /** {@code LEAD(x, offset, default)}: as {@link #LAG}, looking forward. */
  LEAD("lead", 1, 2, false),
  FIRST_VALUE("first_value", 1, 1, true),
  LAST_VALUE("last_value", 1, 1, true),
  /** {@code NTH_VALUE(x, n)}: n (from 1) is the call's parameter. */
  NTH_VALUE("nth_value", 1, 1, true),
  COUNT_STAR("count", 0, 0, true),
  COUNT("count", 1, 1, true),
  SUM("sum", 1, 1, true),
  AVG("avg", 1, 1, true),
  MIN("min", 1, 1, true),
  MAX("max", 1, 1, true);

  private final String sqlName;
  private final int minArguments;
  private final int maxArguments;
  private final boolean usesFrame;

  WindowFunction(String sqlName, int minArguments, int maxArguments, boolean usesFrame) {
    this.sqlName = sqlName;
    this.minArguments = minArguments;
    this.maxArguments = maxArguments;
    this.usesFrame = usesFrame;
  }

  /** The lower-case SQL name, as printed in plans. */
  public String sqlName() {
    return sqlName;
  }

  public int minArguments() {
    return minArguments;
  }

  public int maxArguments() {
    return maxArguments;
  }

  /** Whether the result depends on the call's frame (aggregates and value functions). */
  public boolean usesFrame() {
    return usesFrame;
  }

  /** Whether the call has an integer parameter (NTILE buckets, LAG/LEAD offset, NTH_VALUE n). */
  public boolean hasParameter() {
    return this == NTILE || this == LAG || this == LEAD || this == NTH_VALUE;
  }
}
