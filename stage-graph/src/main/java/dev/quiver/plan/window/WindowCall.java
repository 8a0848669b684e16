package dev.quiver.plan.window;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.type.SqlType;
import java.io.Serializable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One window function call of a window node, as data: the function, its argument columns (indices
 * into the window's input), its integer parameter (NTILE buckets, LAG/LEAD offset, NTH_VALUE n; 0
 * when it has none), its frame (null for functions that do not {@linkplain
 * WindowFunction#usesFrame() use one}) and the name of its output column.
 *
 * <p>Result types, as SQL (and DuckDB) define them ({@link #resultType}):
 *
 * <ul>
 *   <li>ROW_NUMBER, RANK, DENSE_RANK, NTILE, COUNT: BIGINT NOT NULL;
 *   <li>PERCENT_RANK, CUME_DIST: DOUBLE NOT NULL;
 *   <li>LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE, MIN, MAX: the argument's type, nullable (a
 *       LAG/LEAD default column must have that type too);
 *   <li>SUM, AVG: as the aggregate functions ({@link AggregateCall}): SUM of integers BIGINT, of
 *       decimal(p,s) DECIMAL(38,s), of floats DOUBLE; AVG of integers and floats DOUBLE, of
 *       decimal(p,s) DECIMAL(38, max(s,6)); NULL over a frame without non-null values.
 * </ul>
 */
public record WindowCall(
    WindowFunction function,
    List<Integer> arguments,
    long parameter,
    WindowFrame frame,
    String name)
    implements Serializable {
  public WindowCall {
    requireNonNull(function, "function is null");
    requireNonNull(name, "name is null");
    arguments = List.copyOf(requireNonNull(arguments, "arguments is null"));
    if (arguments.size() < function.minArguments() || arguments.size() > function.maxArguments()) {
      throw new IllegalArgumentException(
          function.sqlName()
              + " takes "
              + function.minArguments()
              + ".."
              + function.maxArguments()
              + " arguments, got "
              + arguments);
    }
    for (int argument : arguments) {
      if (argument < 0) {
        throw new IllegalArgumentException("argument column is negative: " + argument);
      }
    }
    if (!function.hasParameter() && parameter != 0) {
      throw new IllegalArgumentException(function.sqlName() + " takes no parameter");
    }
    if ((function == WindowFunction.NTILE || function == WindowFunction.NTH_VALUE)
        && parameter < 1) {
      throw new QuiverException(
          ErrorCode.INVALID_ARGUMENT,
          function.sqlName() + " needs a positive constant, got " + parameter);
    }
    if (function.usesFrame()) {
      requireNonNull(frame, "frame is null");
    } else {
      frame = null;
    }
  }

  /** A call without parameter; {@code frame} is ignored unless the function uses one. */
  public static WindowCall of(
      WindowFunction function, List<Integer> arguments, WindowFrame frame, String name) {
    return new WindowCall(function, arguments, 0, frame, name);
  }

  /** A ranking or distribution function (no arguments, no frame), e.g. {@code rank()}. */
  public static WindowCall ranking(WindowFunction function, String name) {
    return new WindowCall(function, List.of(), 0, null, name);
  }

  /** {@code LAG/LEAD(#x, offset[, #default])}; {@code defaultColumn} -1 for none (NULL). */
  public static WindowCall offset(
      WindowFunction function, int x, long offset, int defaultColumn, String name) {
    List<Integer> arguments = defaultColumn < 0 ? List.of(x) : List.of(x, defaultColumn);
    return new WindowCall(function, arguments, offset, null, name);
  }

  /** The argument column {@code i}. */
  public int argument(int i) {
    return arguments.get(i);
  }

  /**
   * The type of the result given the type of the first argument (null without arguments), or an
   * {@link ErrorCode#UNSUPPORTED_TYPE} error for an argument the function cannot take.
   */
  public SqlType resultType(SqlType argumentType) {
    switch (function) {
      case ROW_NUMBER:
      case RANK:
      case DENSE_RANK:
      case NTILE:
      case COUNT_STAR:
      case COUNT:
        return SqlType.BIGINT;
      case PERCENT_RANK:
      case CUME_DIST:
        return SqlType.DOUBLE;
      case LAG:
      case LEAD:
      case FIRST_VALUE:
      case LAST_VALUE:
      case NTH_VALUE:
        return requireNonNull(argumentType, "argumentType is null");
      case SUM:
      case AVG:
      case MIN:
      case MAX:
        AggregateFunction aggregate = AggregateFunction.valueOf(function.name());
        return SqlType.of(
            AggregateCall.of(aggregate, argument(0), argumentType.arrow(), name).resultType());
      default:
        throw new IllegalStateException("unknown function " + function);
    }
  }

  /** Whether the result can be NULL (see the class comment). */
  public boolean resultNullable() {
    switch (function) {
      case ROW_NUMBER:
      case RANK:
      case DENSE_RANK:
      case NTILE:
      case COUNT_STAR:
      case COUNT:
      case PERCENT_RANK:
      case CUME_DIST:
        return false;
      default:
        return true;
    }
  }

  /**
   * One line: {@code rank()}, {@code lag(#2, 1, #5)}, {@code ntile(4)}, {@code sum(#3) ROWS BETWEEN
   * 2 PRECEDING AND CURRENT ROW}.
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(function.sqlName()).append('(');
    if (function == WindowFunction.COUNT_STAR) {
      text.append('*');
    }
    String args = arguments.stream().map(a -> "#" + a).collect(Collectors.joining(", "));
    text.append(args);
    if (function.hasParameter()) {
      if (function == WindowFunction.NTILE) {
        text.append(parameter);
      } else if (function == WindowFunction.NTH_VALUE || arguments.size() == 1) {
        text.append(", ").append(parameter);
      } else {
        text.setLength(text.length() - args.length());
        text.append('#')
            .append(argument(0))
            .append(", ")
            .append(parameter)
            .append(", #")
            .append(argument(1));
      }
    }
    text.append(')');
    if (frame != null) {
      text.append(' ').append(frame);
    }
    return text.toString();
  }
}
