package dev.quiver.plan.aggregate;

/**
 * The SQL aggregate functions Quiver executes. Result types follow the rules documented on {@link
 * AggregateCall#resultType()}; every function but {@link #COUNT_STAR} takes one argument column.
 */
public enum AggregateFunction {
  /** {@code COUNT(*)}: rows per group, nulls included. */
  COUNT_STAR("count"),
  /** {@code COUNT(x)}: non-null values of x per group. */
  COUNT("count"),
  /** {@code SUM(x)}: sum of the non-null values, NULL if there are none. */
  SUM("sum"),
  /** {@code AVG(x)}: mean of the non-null values, NULL if there are none. */
  AVG("avg"),
  /** {@code MIN(x)}: smallest non-null value, NULL if there are none. */
  MIN("min"),
  /** {@code MAX(x)}: largest non-null value, NULL if there are none. */
  MAX("max"),
  /** {@code COUNT(DISTINCT x)}: distinct non-null values of x per group. */
  COUNT_DISTINCT("count"),
  /** {@code VAR_SAMP(x)}, {@code VARIANCE(x)}: sample variance, NULL for fewer than 2 values. */
  VAR_SAMP("var_samp"),
  /** {@code VAR_POP(x)}: population variance, NULL without values. */
  VAR_POP("var_pop"),
  /** {@code STDDEV_SAMP(x)}, {@code STDDEV(x)}: sample standard deviation, NULL below 2 values. */
  STDDEV_SAMP("stddev_samp"),
  /** {@code STDDEV_POP(x)}: population standard deviation, NULL without values. */
  STDDEV_POP("stddev_pop"),
  /**
   * The value of a scalar subquery without an aggregate: the group's one row's value, NULL without
   * rows, a {@code SCALAR_SUBQUERY_ROWS} error for more than one row (NULL values count as rows).
   */
  SINGLE_VALUE("single_value"),
  /**
   * {@code ARG_MIN(arg, by)}, {@code MIN_BY}: the {@code arg} of a row with the smallest {@code
   * by}, rows where either is NULL skipped; ties pick any of the tied rows. NULL without rows.
   */
  ARG_MIN("arg_min"),
  /** {@code ARG_MAX(arg, by)}, {@code MAX_BY}: as {@link #ARG_MIN}, for the largest {@code by}. */
  ARG_MAX("arg_max"),
  /**
   * {@code APPROX_COUNT_DISTINCT(x)}: the number of distinct non-null values of x, estimated with a
   * HyperLogLog sketch of 2^{@value AggregateCall#HLL_PRECISION} one-byte registers per group
   * (standard error 1.04 / 2^(p/2), about 1.6%); 0 without values, never NULL. Sketches merge
   * exactly (register-wise maximum), so it runs as PARTIAL and FINAL.
   */
  APPROX_COUNT_DISTINCT("approx_count_distinct"),
  /**
   * {@code MEDIAN(x)}: {@link #PERCENTILE_CONT} at 0.5. Holistic, as the percentiles: computed from
   * all the group's non-null values, so it runs SINGLE after a hash repartition on the keys.
   */
  MEDIAN("median"),
  /**
   * {@code PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY x)}, {@code QUANTILE_CONT(x, f)}: the value at
   * position f·(n-1) of the n sorted non-null values, interpolated linearly between neighbours.
   */
  PERCENTILE_CONT("percentile_cont"),
  /**
   * {@code PERCENTILE_DISC(f) WITHIN GROUP (ORDER BY x)}, {@code QUANTILE_DISC(x, f)}: the first of
   * the sorted non-null values whose cumulative share reaches f (index ⌈f·n⌉ - 1, at least 0).
   */
  PERCENTILE_DISC("percentile_disc"),
  /**
   * {@code STRING_AGG(s, sep [ORDER BY y])}, {@code LISTAGG(s, sep) WITHIN GROUP (ORDER BY y)}: the
   * non-null strings joined by the constant separator, in the order of {@link AggregateCall#by()}
   * if given (else input order); NULL without values. Holistic.
   */
  STRING_AGG("string_agg");

  private final String sqlName;

  AggregateFunction(String sqlName) {
    this.sqlName = sqlName;
  }

  /** The lower-case SQL name, as printed in plans ({@code count} for all three counts). */
  public String sqlName() {
    return sqlName;
  }

  /** Whether the call takes a second column, its {@link AggregateCall#by()} (ARG_MIN, ARG_MAX). */
  public boolean takesBy() {
    return this == ARG_MIN || this == ARG_MAX;
  }

  /**
   * Whether the result needs all the group's values at once (no small partial state): MEDIAN and
   * the percentiles.
   */
  public boolean isHolistic() {
    return this == MEDIAN
        || this == PERCENTILE_CONT
        || this == PERCENTILE_DISC
        || this == STRING_AGG;
  }

  /** Whether the call takes a {@link AggregateCall#fraction()} (the percentiles). */
  public boolean takesFraction() {
    return this == PERCENTILE_CONT || this == PERCENTILE_DISC;
  }

  /** Whether this is one of the variance family (variance or standard deviation). */
  public boolean isVariance() {
    return this == VAR_SAMP || this == VAR_POP || this == STDDEV_SAMP || this == STDDEV_POP;
  }
}
