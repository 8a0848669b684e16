package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Picks the accumulator of an aggregate call by its function family and argument type. */
final class Accumulators {
  private Accumulators() {}

  static Accumulator create(AggregateCall call, Reservation reservation, Scratch scratch) {
    AggregateFunction function = call.function();
    if (function == AggregateFunction.COUNT_STAR
        || function == AggregateFunction.COUNT
        || function == AggregateFunction.COUNT_DISTINCT) {
      return new CountAccumulator(reservation);
    }
    if (function == AggregateFunction.APPROX_COUNT_DISTINCT) {
      return new HyperLogLogAccumulator(reservation, scratch);
    }
    ArrowType type = call.argumentType().orElseThrow();
    if (function == AggregateFunction.SINGLE_VALUE) {
      // With at most one row per group (checked by the wrapper), MIN keeps that row's value.
      AggregateCall min =
          AggregateCall.of(AggregateFunction.MIN, call.argument(), type, call.name());
      return new SingleValueAccumulator(
          call.toString(), create(min, reservation, scratch), reservation);
    }
    boolean average = function == AggregateFunction.AVG;
    boolean max = function == AggregateFunction.MAX;
    switch (function) {
      case SUM:
      case AVG:
        switch (type.getTypeID()) {
          case Int:
            return new LongSumAccumulator(call.toString(), average, reservation, scratch);
          case FloatingPoint:
            return new DoubleSumAccumulator(average, reservation, scratch);
          case Decimal:
            int scale = ((ArrowType.Decimal) type).getScale();
            return new DecimalSumAccumulator(call.toString(), scale, average, reservation);
          default:
            break;
        }
        break;
      case VAR_SAMP:
      case VAR_POP:
      case STDDEV_SAMP:
      case STDDEV_POP:
        boolean sample =
            function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
        boolean root =
            function == AggregateFunction.STDDEV_SAMP || function == AggregateFunction.STDDEV_POP;
        int decimalScale =
            type instanceof ArrowType.Decimal ? ((ArrowType.Decimal) type).getScale() : -1;
        return new VarianceAccumulator(sample, root, decimalScale, reservation, scratch);
      case MEDIAN:
      case PERCENTILE_CONT:
      case PERCENTILE_DISC:
        return new QuantileAccumulator(
            function != AggregateFunction.PERCENTILE_DISC,
            function == AggregateFunction.MEDIAN ? 0.5 : call.fraction(),
            type instanceof ArrowType.FloatingPoint,
            type instanceof ArrowType.Decimal ? ((ArrowType.Decimal) type).getScale() : -1,
            reservation,
            scratch);
      case STRING_AGG:
        return new StringAggAccumulator(
            call.separator(), call.byType().orElse(null), call.descending(), reservation, scratch);
      case ARG_MIN:
      case ARG_MAX:
        return new ArgMinMaxAccumulator(
            function == AggregateFunction.ARG_MAX,
            type,
            call.byType().orElseThrow(),
            reservation,
            scratch);
      case MIN:
      case MAX:
        switch (type.getTypeID()) {
          case Int:
          case Date:
          case Timestamp:
            return new LongMinMaxAccumulator(max, reservation, scratch);
          case FloatingPoint:
            return new DoubleMinMaxAccumulator(max, reservation, scratch);
          case Decimal:
            return new DecimalMinMaxAccumulator(max, reservation);
          case Bool:
            return new BooleanMinMaxAccumulator(max, reservation);
          case Utf8:
            return new StringMinMaxAccumulator(max, reservation);
          default:
            break;
        }
        break;
      default:
        break;
    }
    throw new QuiverException(
        ErrorCode.UNSUPPORTED_TYPE, call + " over " + type + " is not supported");
  }
}
