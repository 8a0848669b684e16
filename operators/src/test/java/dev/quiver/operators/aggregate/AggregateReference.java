package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The naive reference: row at a time, boxed keys in a HashMap, BigDecimal/Long/Double state. Its
 * results are what SINGLE (and PARTIAL + FINAL) must produce.
 */
final class AggregateReference {
  private final int[] keys;
  private final List<AggregateCall> calls;
  private final Map<List<Object>, State[]> groups = new LinkedHashMap<>();

  AggregateReference(int[] keys, List<AggregateCall> calls) {
    this.keys = keys.clone();
    this.calls = calls;
    if (keys.length == 0) {
      groups.put(List.of(), newStates()); // a global aggregate always has its group
    }
  }

  void add(List<List<Object>> rows) {
    for (List<Object> row : rows) {
      List<Object> key = new ArrayList<>();
      for (int k : keys) {
        key.add(row.get(k));
      }
      State[] states = groups.computeIfAbsent(key, k -> newStates());
      for (int c = 0; c < calls.size(); c++) {
        AggregateCall call = calls.get(c);
        if (call.hasFilter() && !Boolean.TRUE.equals(row.get(call.filter()))) {
          continue; // FILTER (WHERE f): only rows where f is TRUE
        }
        int argument = call.argument();
        states[c].add(argument < 0 ? Boolean.TRUE : row.get(argument));
      }
    }
  }

  /** Group key → final values, in call order. Throws NUMERIC_OVERFLOW like the operator. */
  Map<List<Object>, List<Object>> results() {
    Map<List<Object>, List<Object>> results = new LinkedHashMap<>();
    groups.forEach(
        (key, states) -> {
          List<Object> values = new ArrayList<>();
          for (State state : states) {
            values.add(state.result());
          }
          results.put(key, values);
        });
    return results;
  }

  private State[] newStates() {
    State[] states = new State[calls.size()];
    for (int c = 0; c < states.length; c++) {
      states[c] = new State(calls.get(c));
    }
    return states;
  }

  private static final class State {
    final AggregateCall call;
    final Set<Object> distinct = new HashSet<>();
    long count;
    long longSum;
    double doubleSum;
    BigDecimal decimalSum = BigDecimal.ZERO;
    Object extreme;
    double mean;
    double m2;

    State(AggregateCall call) {
      this.call = call;
    }

    void add(Object value) {
      if (value == null || call.isDistinct() && !distinct.add(value)) {
        return;
      }
      count++;
      switch (call.function()) {
        case SUM:
        case AVG:
          if (value instanceof BigDecimal) {
            decimalSum = decimalSum.add((BigDecimal) value);
          } else if (value instanceof Float || value instanceof Double) {
            doubleSum += ((Number) value).doubleValue();
          } else {
            try {
              longSum = Math.addExact(longSum, ((Number) value).longValue());
            } catch (ArithmeticException e) {
              throw new QuiverException(ErrorCode.NUMERIC_OVERFLOW, call + " overflows");
            }
          }
          break;
        case VAR_SAMP:
        case VAR_POP:
        case STDDEV_SAMP:
        case STDDEV_POP:
          double x = toDouble(value);
          double delta = x - mean;
          mean += delta / count;
          m2 += delta * (x - mean);
          break;
        case MIN:
        case MAX:
          int sign = call.function() == AggregateFunction.MAX ? 1 : -1;
          if (extreme == null || compare(value, extreme) * sign > 0) {
            extreme = value;
          }
          break;
        default:
          break;
      }
    }

    Object result() {
      switch (call.function()) {
        case COUNT_STAR:
        case COUNT:
        case COUNT_DISTINCT:
          return count;
        case MIN:
        case MAX:
          return extreme;
        default:
          break;
      }
      if (call.function().isVariance()) {
        boolean sample =
            call.function() == AggregateFunction.VAR_SAMP
                || call.function() == AggregateFunction.STDDEV_SAMP;
        if (count < (sample ? 2 : 1)) {
          return null;
        }
        double variance = Math.max(0.0, m2) / (sample ? count - 1 : count);
        boolean root =
            call.function() == AggregateFunction.STDDEV_SAMP
                || call.function() == AggregateFunction.STDDEV_POP;
        return root ? Math.sqrt(variance) : variance;
      }
      if (count == 0) {
        return null;
      }
      ArrowType type = call.argumentType().orElseThrow();
      boolean average = call.function() == AggregateFunction.AVG;
      if (type instanceof ArrowType.Decimal) {
        BigDecimal result =
            average
                ? decimalSum.divide(
                    BigDecimal.valueOf(count),
                    ((ArrowType.Decimal) call.resultType()).getScale(),
                    RoundingMode.HALF_UP)
                : decimalSum;
        if (result.precision() > 38) {
          throw new QuiverException(ErrorCode.NUMERIC_OVERFLOW, call + " exceeds 38 digits");
        }
        return result;
      }
      if (type instanceof ArrowType.FloatingPoint) {
        return average ? doubleSum / count : doubleSum;
      }
      return average ? (Object) ((double) longSum / count) : (Object) longSum;
    }
  }

  /** A value as the variance accumulators read it: decimals as unscaled ÷ 10^scale. */
  static double toDouble(Object value) {
    if (value instanceof BigDecimal) {
      BigDecimal decimal = (BigDecimal) value;
      BigInteger unscaled = decimal.unscaledValue();
      return Columns.decimalToDouble(
          unscaled.longValue(), unscaled.shiftRight(64).longValue(), Math.pow(10, decimal.scale()));
    }
    return ((Number) value).doubleValue();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (a instanceof String) {
      return Arrays.compareUnsigned(
          ((String) a).getBytes(StandardCharsets.UTF_8),
          ((String) b).getBytes(StandardCharsets.UTF_8));
    }
    if (a instanceof Float || a instanceof Double) {
      return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
    }
    return ((Comparable) a).compareTo(b);
  }
}
