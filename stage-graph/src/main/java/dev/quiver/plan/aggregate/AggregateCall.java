package dev.quiver.plan.aggregate;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One aggregate of an aggregate node, as data: the function, its argument column (an index into the
 * input of the PARTIAL or SINGLE aggregate) with that column's Arrow type, the DISTINCT flag and
 * the name of its output column, and optionally a FILTER column (a boolean column of the same
 * input: rows where it is not TRUE are skipped by this call). Immutable and {@link Serializable}
 * (the Arrow type travels as its JSON form).
 *
 * <p>Result types ({@link #resultType()}), by SQL rules:
 *
 * <ul>
 *   <li>{@code COUNT(*)}, {@code COUNT(x)}, {@code COUNT(DISTINCT x)}, {@code
 *       APPROX_COUNT_DISTINCT(x)}: int64, never NULL;
 *   <li>{@code SUM}: of any signed int → int64 (overflow is an error, not a wrap); of decimal(p,s)
 *       → decimal(38,s); of float32/float64 → float64;
 *   <li>{@code AVG}: of any signed int or float → float64 (computed as exact int64 sum ÷ count for
 *       ints); of decimal(p,s) → decimal(38, max(s,6)), exact, rounded HALF_UP;
 *   <li>{@code VAR_SAMP}, {@code VAR_POP}, {@code STDDEV_SAMP}, {@code STDDEV_POP}: of any signed
 *       int, float or decimal → float64 (values are converted to float64 first, as DuckDB does);
 *       the sample forms are NULL for fewer than two values;
 *   <li>{@code SINGLE_VALUE}: the argument's type (as MIN and MAX take);
 *   <li>{@code MIN}/{@code MAX}: the argument's type (bool, int8–64, float32/64, decimal128, utf8,
 *       date32, timestamp µs);
 *   <li>{@code ARG_MIN(arg, by)}/{@code ARG_MAX(arg, by)}: the type of {@code arg}; both {@code
 *       arg} and {@code by} of the types MIN and MAX take. The {@code by} column is {@link #by()}.
 * </ul>
 *
 * All results but the counts are NULL for a group without non-null argument values. {@code COUNT}
 * with DISTINCT becomes {@link AggregateFunction#COUNT_DISTINCT}; DISTINCT is dropped from MIN and
 * MAX, where it changes nothing.
 */
public final class AggregateCall implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The {@link #argument()} of {@code COUNT(*)}. */
  public static final int NO_ARGUMENT = -1;

  /**
   * The HyperLogLog precision p of {@link AggregateFunction#APPROX_COUNT_DISTINCT}: 2^p registers
   * of one byte per group, a relative standard error of 1.04 / 2^(p/2) ≈ 1.6%.
   */
  public static final int HLL_PRECISION = 12;

  /** The {@link #filter()} of a call without {@code FILTER (WHERE ...)}. */
  public static final int NO_FILTER = -1;

  private final AggregateFunction function;
  private final int argument;
  private final transient ArrowType argumentType; // null for COUNT(*); serialized as JSON
  private final boolean distinct;
  private final String name;
  private final int filter;
  private final int by;
  private final double fraction; // the percentiles' f in [0, 1]; NaN for other functions
  private final String separator; // STRING_AGG's; null for other functions
  private final boolean descending; // STRING_AGG: ORDER BY by DESC
  private final transient ArrowType byType; // null unless the function takes a by column
  private final transient ArrowType resultType;

  /**
   * @param argument the argument's column index, or {@link #NO_ARGUMENT} for {@code COUNT(*)}
   * @param argumentType the argument column's type, or null for {@code COUNT(*)}
   */
  public AggregateCall(
      AggregateFunction function,
      int argument,
      ArrowType argumentType,
      boolean distinct,
      String name) {
    this(function, argument, argumentType, distinct, name, NO_FILTER);
  }

  /**
   * @param filter the index of the boolean FILTER column in the input of the PARTIAL or SINGLE
   *     aggregate, or {@link #NO_FILTER}
   */
  public AggregateCall(
      AggregateFunction function,
      int argument,
      ArrowType argumentType,
      boolean distinct,
      String name,
      int filter) {
    this(function, argument, argumentType, NO_ARGUMENT, null, distinct, name, filter);
  }

  /**
   * A call with a second column {@code by} (ARG_MIN, ARG_MAX: the column whose smallest or largest
   * value picks the row), {@link #NO_ARGUMENT} and null for other functions.
   */
  public AggregateCall(
      AggregateFunction function,
      int argument,
      ArrowType argumentType,
      int by,
      ArrowType byType,
      boolean distinct,
      String name,
      int filter) {
    this(
        function,
        argument,
        argumentType,
        by,
        byType,
        Double.NaN,
        null,
        false,
        distinct,
        name,
        filter);
  }

  private AggregateCall(
      AggregateFunction function,
      int argument,
      ArrowType argumentType,
      int by,
      ArrowType byType,
      double fraction,
      String separator,
      boolean descending,
      boolean distinct,
      String name,
      int filter) {
    requireNonNull(function, "function is null");
    if ((function == AggregateFunction.STRING_AGG) != (separator != null)) {
      throw new IllegalArgumentException("only string_agg takes a separator: " + function);
    }
    this.separator = separator;
    this.descending = descending;
    if (function.takesFraction() ? !(fraction >= 0 && fraction <= 1) : !Double.isNaN(fraction)) {
      throw new IllegalArgumentException(
          function.sqlName()
              + (function.takesFraction()
                  ? " takes a fraction between 0 and 1, not " + fraction
                  : " takes no fraction"));
    }
    this.fraction = fraction;
    boolean optionalBy = function == AggregateFunction.STRING_AGG;
    if ((!optionalBy && function.takesBy() != (by != NO_ARGUMENT))
        || (by == NO_ARGUMENT) != (byType == null)) {
      throw new IllegalArgumentException(
          function.sqlName()
              + (function.takesBy() ? " needs" : " takes no")
              + " second column: "
              + by
              + " of type "
              + byType);
    }
    if (by < NO_ARGUMENT) {
      throw new IllegalArgumentException("second column of " + name + " is " + by);
    }
    this.by = by;
    this.byType = byType;
    if (filter < NO_FILTER) {
      throw new IllegalArgumentException("filter column of " + name + " is " + filter);
    }
    this.filter = filter;
    this.name = requireNonNull(name, "name is null");
    if (function == AggregateFunction.COUNT_STAR) {
      if (argument != NO_ARGUMENT || argumentType != null || distinct) {
        throw new IllegalArgumentException("count(*) takes no argument and no DISTINCT");
      }
    } else {
      requireNonNull(argumentType, "argumentType is null");
      if (argument < 0) {
        throw new IllegalArgumentException(function + " needs an argument column: " + argument);
      }
    }
    if (function == AggregateFunction.COUNT && distinct) {
      function = AggregateFunction.COUNT_DISTINCT;
    }
    this.function = function;
    this.argument = argument;
    this.argumentType = argumentType;
    this.distinct =
        function == AggregateFunction.COUNT_DISTINCT
            || distinct
                && function != AggregateFunction.MIN
                && function != AggregateFunction.MAX
                && !function.takesBy();
    this.resultType = AggregateTypes.resultType(this);
  }

  /** {@code COUNT(*)} named {@code name}. */
  public static AggregateCall countStar(String name) {
    return new AggregateCall(AggregateFunction.COUNT_STAR, NO_ARGUMENT, null, false, name);
  }

  /** A non-distinct call of {@code function} over column {@code argument} of type {@code type}. */
  public static AggregateCall of(
      AggregateFunction function, int argument, ArrowType type, String name) {
    return new AggregateCall(function, argument, type, false, name);
  }

  /** {@code PERCENTILE_CONT(fraction) WITHIN GROUP (ORDER BY #argument)}, or _DISC. */
  public static AggregateCall percentile(
      AggregateFunction function, int argument, ArrowType type, double fraction, String name) {
    return new AggregateCall(
        function, argument, type, NO_ARGUMENT, null, fraction, null, false, false, name, NO_FILTER);
  }

  /**
   * {@code STRING_AGG(#argument, separator ORDER BY #by [DESC])}; {@code by} is {@link
   * #NO_ARGUMENT} (and its type null) for input order.
   */
  public static AggregateCall stringAgg(
      int argument,
      ArrowType type,
      String separator,
      int by,
      ArrowType byType,
      boolean descending,
      String name) {
    return new AggregateCall(
        AggregateFunction.STRING_AGG,
        argument,
        type,
        by,
        byType,
        Double.NaN,
        requireNonNull(separator, "separator is null"),
        descending,
        false,
        name,
        NO_FILTER);
  }

  /** {@code function(#argument, #by)}, as {@code ARG_MIN(arg, by)}. */
  public static AggregateCall of(
      AggregateFunction function,
      int argument,
      ArrowType type,
      int by,
      ArrowType byType,
      String name) {
    return new AggregateCall(function, argument, type, by, byType, false, name, NO_FILTER);
  }

  public AggregateFunction function() {
    return function;
  }

  /** The argument's column index, or {@link #NO_ARGUMENT}. */
  public int argument() {
    return argument;
  }

  public Optional<ArrowType> argumentType() {
    return Optional.ofNullable(argumentType);
  }

  public boolean isDistinct() {
    return distinct;
  }

  public String name() {
    return name;
  }

  /**
   * The boolean column whose rows this call folds (only those where it is TRUE), or {@link
   * #NO_FILTER}. It applies where input rows are read (PARTIAL, SINGLE); FINAL merges states that
   * were filtered already.
   */
  public int filter() {
    return filter;
  }

  /** The second column (ARG_MIN, ARG_MAX: the one compared), or {@link #NO_ARGUMENT}. */
  public int by() {
    return by;
  }

  /** The percentiles' fraction in [0, 1]; NaN for other functions (MEDIAN is 0.5 by itself). */
  public double fraction() {
    return fraction;
  }

  /** STRING_AGG's separator, null for other functions. */
  public String separator() {
    return separator;
  }

  /** STRING_AGG: whether it orders by {@link #by()} descending. */
  public boolean descending() {
    return descending;
  }

  /** The type of {@link #by()}, empty without one. */
  public Optional<ArrowType> byType() {
    return Optional.ofNullable(byType);
  }

  public boolean hasFilter() {
    return filter != NO_FILTER;
  }

  /** This call with {@code FILTER (WHERE #column)}. */
  public AggregateCall withFilter(int column) {
    return new AggregateCall(
        function,
        argument,
        argumentType,
        by,
        byType,
        fraction,
        separator,
        descending,
        distinct,
        name,
        column);
  }

  /** The type of the final value (see the class comment for the rules). */
  public ArrowType resultType() {
    return resultType;
  }

  /** The final value's column: {@link #name()}, {@link #resultType()}, nullable but for counts. */
  public Field resultField() {
    boolean nullable = !AggregateTypes.isCount(function);
    return new Field(name, new FieldType(nullable, resultType, null), null);
  }

  /**
   * Whether the call has partial states that merge exactly, so it can run as PARTIAL + FINAL.
   * DISTINCT calls do not: a planner runs them SINGLE after a hash repartition on the group keys,
   * or rewrites them into a two-level aggregate (group by keys and x, then count).
   */
  public boolean hasPartialState() {
    return !distinct && !function.isHolistic();
  }

  /**
   * The partial-state columns of {@code call}, in the order PARTIAL writes and FINAL reads them:
   * COUNT → {@code name$count} int64 not null; SUM → {@code name$sum} of the result type; AVG →
   * {@code name$sum} (int64, float64 or decimal(38,s)) and {@code name$count} int64 not null;
   * MIN/MAX → {@code name$min}/{@code name$max} of the argument type; the variance family → {@code
   * name$count} int64, {@code name$mean} float64 and {@code name$m2} float64 (the sum of squared
   * deviations from the mean), all not null, merged with Chan's parallel formula; ARG_MIN/ARG_MAX →
   * {@code name$arg} of the argument type and {@code name$by} of the by type, both NULL or both
   * set; APPROX_COUNT_DISTINCT → {@code name$hll}, the sketch's 2^{@link #HLL_PRECISION} registers
   * as a utf8 of as many ASCII characters {@code '0' + rank} (plans have no binary type), not null.
   *
   * @throws IllegalArgumentException for DISTINCT calls (see {@link #hasPartialState()})
   */
  public static List<Field> stateFields(AggregateCall call) {
    requireNonNull(call, "call is null");
    return AggregateTypes.stateFields(call);
  }

  /**
   * One line: {@code sum(#4)}, {@code count(*)}, {@code count(DISTINCT #2)}, {@code sum(#4) FILTER
   * #6}.
   */
  @Override
  public String toString() {
    String call =
        function == AggregateFunction.COUNT_STAR
            ? "count(*)"
            : function.sqlName()
                + "("
                + (distinct ? "DISTINCT " : "")
                + "#"
                + argument
                + (separator == null ? "" : ", '" + separator.replace("'", "''") + "'")
                + (by == NO_ARGUMENT
                    ? ""
                    : (separator == null ? ", #" : " ORDER BY #")
                        + by
                        + (descending ? " DESC" : ""))
                + (Double.isNaN(fraction) ? "" : ", " + fraction)
                + ")";
    return hasFilter() ? call + " FILTER #" + filter : call;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof AggregateCall)) {
      return false;
    }
    AggregateCall that = (AggregateCall) o;
    return function == that.function
        && argument == that.argument
        && distinct == that.distinct
        && filter == that.filter
        && by == that.by
        && Double.compare(fraction, that.fraction) == 0
        && Objects.equals(separator, that.separator)
        && descending == that.descending
        && name.equals(that.name)
        && Objects.equals(argumentType, that.argumentType)
        && Objects.equals(byType, that.byType);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        function,
        argument,
        argumentType,
        distinct,
        name,
        filter,
        by,
        byType,
        fraction,
        separator,
        descending);
  }

  private Object writeReplace() {
    return new Proxy(this);
  }

  private void readObject(ObjectInputStream in) throws InvalidObjectException {
    throw new InvalidObjectException("AggregateCall is serialized through its proxy");
  }

  /** The serialized form: Arrow types are not Serializable, so the type travels as JSON. */
  private static final class Proxy implements Serializable {
    private static final long serialVersionUID = 5L; // 2: FILTER; 3: by; 4: fraction; 5: separator
    private final AggregateFunction function;
    private final int argument;
    private final String argumentTypeJson;
    private final boolean distinct;
    private final String name;
    private final int filter;
    private final int by;
    private final String byTypeJson;
    private final double fraction;
    private final String separator;
    private final boolean descending;

    Proxy(AggregateCall call) {
      this.function = call.function;
      this.argument = call.argument;
      this.argumentTypeJson = toJson(call.argumentType);
      this.by = call.by;
      this.byTypeJson = toJson(call.byType);
      this.fraction = call.fraction;
      this.separator = call.separator;
      this.descending = call.descending;
      this.distinct = call.distinct;
      this.name = call.name;
      this.filter = call.filter;
    }

    private static String toJson(ArrowType type) {
      return type == null ? null : new Schema(List.of(Field.nullable("t", type))).toJson();
    }

    private ArrowType fromJson(String json) {
      try {
        return json == null ? null : Schema.fromJSON(json).getFields().get(0).getType();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the argument types of " + name, e);
      }
    }

    private Object readResolve() {
      return new AggregateCall(
          function,
          argument,
          fromJson(argumentTypeJson),
          by,
          fromJson(byTypeJson),
          fraction,
          separator,
          descending,
          distinct,
          name,
          filter);
    }
  }
}
