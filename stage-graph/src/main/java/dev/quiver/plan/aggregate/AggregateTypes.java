package dev.quiver.plan.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** The SQL typing rules of {@link AggregateCall}: which arguments a function takes, and results. */
final class AggregateTypes {
  /** The widest decimal128 precision: sums are widened to it. */
  static final int MAX_PRECISION = 38;

  /** AVG of a decimal keeps at least this many fraction digits. */
  static final int MIN_AVG_SCALE = 6;

  /** The widest DECIMAL whose PERCENTILE_DISC is computed: its unscaled values fit 64 bits. */
  public static final int MAX_DISC_DECIMAL_PRECISION = 18;

  static final ArrowType INT64 = new ArrowType.Int(64, true);
  static final ArrowType FLOAT64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  private AggregateTypes() {}

  static boolean isCount(AggregateFunction function) {
    return function == AggregateFunction.COUNT_STAR
        || function == AggregateFunction.COUNT
        || function == AggregateFunction.COUNT_DISTINCT
        || function == AggregateFunction.APPROX_COUNT_DISTINCT;
  }

  static ArrowType resultType(AggregateCall call) {
    AggregateFunction function = call.function();
    if (function == AggregateFunction.APPROX_COUNT_DISTINCT
        && !isOrderable(call.argumentType().orElseThrow())) {
      throw unsupported(call, call.argumentType().orElseThrow());
    }
    if (isCount(function)) {
      return INT64;
    }
    ArrowType type = call.argumentType().orElseThrow();
    switch (function) {
      case SUM:
        return sumType(call, type);
      case AVG:
        if (type instanceof ArrowType.Decimal) {
          int scale = Math.max(((ArrowType.Decimal) type).getScale(), MIN_AVG_SCALE);
          return new ArrowType.Decimal(MAX_PRECISION, scale, 128);
        }
        sumType(call, type); // validates the argument
        return FLOAT64;
      case VAR_SAMP:
      case VAR_POP:
      case STDDEV_SAMP:
      case STDDEV_POP:
        sumType(call, type); // validates the argument: any signed int, float or decimal
        return FLOAT64;
      case MEDIAN:
      case PERCENTILE_CONT:
        // A DECIMAL interpolates as a DOUBLE, as PostgreSQL's percentile_cont does.
        sumType(call, type); // validates the argument: any signed int, float or decimal
        return FLOAT64;
      case PERCENTILE_DISC:
        // One of the values, so its own type; a decimal of up to 18 digits (kept as 64 bits).
        if (type instanceof ArrowType.Decimal decimal
            && decimal.getPrecision() > MAX_DISC_DECIMAL_PRECISION) {
          throw unsupported(call, type);
        }
        if (type instanceof ArrowType.Utf8
            || type instanceof ArrowType.Bool
            || !isOrderable(type)) {
          throw unsupported(call, type);
        }
        return type;
      case STRING_AGG:
        if (!(type instanceof ArrowType.Utf8)) {
          throw unsupported(call, type);
        }
        if (call.byType().isPresent()) {
          ArrowType order = call.byType().get();
          if (!isOrderable(order)
              || order instanceof ArrowType.Bool
              || order instanceof ArrowType.Decimal) {
            throw unsupported(call, order);
          }
        }
        return type;
      case ARG_MIN:
      case ARG_MAX:
        ArrowType by = call.byType().orElseThrow();
        if (!isOrderable(by)) {
          throw unsupported(call, by);
        }
        if (!isOrderable(type)) {
          throw unsupported(call, type);
        }
        return type;
      case SINGLE_VALUE:
      case MIN:
      case MAX:
        if (!isOrderable(type)) {
          throw unsupported(call, type);
        }
        return type;
      default:
        throw new IllegalStateException("unknown function " + function);
    }
  }

  /** The type SUM accumulates in, which is also the sum state of AVG. */
  static ArrowType sumType(AggregateCall call, ArrowType type) {
    if (type instanceof ArrowType.Int && ((ArrowType.Int) type).getIsSigned()) {
      return INT64;
    }
    if (type instanceof ArrowType.FloatingPoint
        && ((ArrowType.FloatingPoint) type).getPrecision() != FloatingPointPrecision.HALF) {
      return FLOAT64;
    }
    if (type instanceof ArrowType.Decimal && ((ArrowType.Decimal) type).getBitWidth() == 128) {
      return new ArrowType.Decimal(MAX_PRECISION, ((ArrowType.Decimal) type).getScale(), 128);
    }
    throw unsupported(call, type);
  }

  static List<Field> stateFields(AggregateCall call) {
    if (!call.hasPartialState()) {
      throw new IllegalArgumentException(
          call
              + " has no mergeable partial state: run it in a SINGLE aggregate after a hash"
              + " repartition on the group keys, or as a two-level aggregate");
    }
    String name = call.name();
    Field count = new Field(name + "$count", FieldType.notNullable(INT64), null);
    switch (call.function()) {
      case COUNT_STAR:
      case COUNT:
        return List.of(count);
      case SUM:
        return List.of(Field.nullable(name + "$sum", call.resultType()));
      case AVG:
        ArrowType sum = sumType(call, call.argumentType().orElseThrow());
        return List.of(Field.nullable(name + "$sum", sum), count);
      case VAR_SAMP:
      case VAR_POP:
      case STDDEV_SAMP:
      case STDDEV_POP:
        return List.of(
            count,
            new Field(name + "$mean", FieldType.notNullable(FLOAT64), null),
            new Field(name + "$m2", FieldType.notNullable(FLOAT64), null));
      case SINGLE_VALUE:
        return List.of(
            Field.nullable(name + "$value", call.resultType()),
            new Field(name + "$rows", FieldType.notNullable(INT64), null));
      case APPROX_COUNT_DISTINCT:
        return List.of(
            new Field(name + "$hll", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null));
      case ARG_MIN:
      case ARG_MAX:
        return List.of(
            Field.nullable(name + "$arg", call.resultType()),
            Field.nullable(name + "$by", call.byType().orElseThrow()));
      case MIN:
        return List.of(Field.nullable(name + "$min", call.resultType()));
      case MAX:
        return List.of(Field.nullable(name + "$max", call.resultType()));
      default:
        throw new IllegalStateException("unknown function " + call.function());
    }
  }

  private static boolean isOrderable(ArrowType type) {
    switch (type.getTypeID()) {
      case Bool:
      case Utf8:
        return true;
      case Int:
        return ((ArrowType.Int) type).getIsSigned();
      case FloatingPoint:
        return ((ArrowType.FloatingPoint) type).getPrecision() != FloatingPointPrecision.HALF;
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth() == 128;
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY;
      case Timestamp:
        return ((ArrowType.Timestamp) type).getUnit() == TimeUnit.MICROSECOND;
      default:
        return false;
    }
  }

  private static QuiverException unsupported(AggregateCall call, ArrowType type) {
    return new QuiverException(
        ErrorCode.UNSUPPORTED_TYPE,
        call.function().sqlName()
            + "(#"
            + call.argument()
            + (call.by() == AggregateCall.NO_ARGUMENT ? "" : ", #" + call.by())
            + ") does not accept an argument of type "
            + type
            + (call.function() == AggregateFunction.SUM
                    || call.function() == AggregateFunction.AVG
                    || call.function().isVariance()
                ? "; cast it to a numeric type"
                : call.function().isHolistic() ? "; cast it to DOUBLE" : ""));
  }
}
