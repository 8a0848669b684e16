package dev.quiver.formats;

/**
 * Min/max statistics of one column in one row group, as values that compare with predicate literals
 * (see {@link ColumnPredicate}): integers, decimals, dates (epoch days) and timestamps (epoch
 * microseconds) as {@link java.math.BigDecimal}; strings as their UTF-8 bytes ({@code byte[]},
 * compared unsigned, which is code-point order); booleans as {@link Boolean}.
 *
 * @param min the smallest non-null value, or null if unknown
 * @param max the largest non-null value, or null if unknown
 * @param nullCount the number of nulls, or -1 if unknown
 */
public record ColumnStats(Object min, Object max, long nullCount) {}
