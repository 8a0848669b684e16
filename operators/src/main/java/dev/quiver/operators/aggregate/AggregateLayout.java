package dev.quiver.operators.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Where a hash aggregate finds its keys and arguments in its input, and the schema of its output.
 *
 * <pre>
 *   SINGLE, PARTIAL input: any columns; keys and arguments by index
 *   FINAL input = PARTIAL output: [key 0 .. key k-1][states of call 0][states of call 1]...
 *   PARTIAL output: keys, then AggregateCall.stateFields of each call
 *   FINAL, SINGLE output: keys, then AggregateCall.resultField of each call
 * </pre>
 *
 * In FINAL mode the group key indices and the calls' argument indices are those of the PARTIAL
 * aggregate (they name the aggregation in plans); the input is read by position.
 */
final class AggregateLayout {
  final AggregateMode mode;
  final List<Field> keyFields = new ArrayList<>();
  final int[] keyColumns;

  /** SINGLE, PARTIAL: the argument column of each call (-1 for none); FINAL: its first state. */
  final int[] inputColumns;

  /** SINGLE, PARTIAL: the second column of each call (ARG_MIN's by), -1 for none; FINAL: -1. */
  final int[] byColumns;

  /** SINGLE, PARTIAL: the FILTER column of each call, -1 for none; FINAL: all -1 (filtered). */
  final int[] filterColumns;

  /** The number of partial-state columns of each call (0 where it has none). */
  final int[] stateCounts;

  final Schema output;

  AggregateLayout(Schema input, AggregateMode mode, int[] groupKeys, List<AggregateCall> calls) {
    requireNonNull(input, "input is null");
    this.mode = requireNonNull(mode, "mode is null");
    requireNonNull(groupKeys, "groupKeys is null");
    requireNonNull(calls, "calls is null");
    List<Field> fields = input.getFields();
    this.keyColumns = new int[groupKeys.length];
    for (int i = 0; i < groupKeys.length; i++) {
      keyColumns[i] = mode == AggregateMode.FINAL ? i : groupKeys[i];
      checkColumn(fields, keyColumns[i], "group key");
      keyFields.add(fields.get(keyColumns[i]));
    }
    this.inputColumns = new int[calls.size()];
    this.stateCounts = new int[calls.size()];
    this.filterColumns = new int[calls.size()];
    this.byColumns = new int[calls.size()];
    List<Field> outputFields = new ArrayList<>(keyFields);
    int state = groupKeys.length;
    for (int c = 0; c < calls.size(); c++) {
      AggregateCall call = requireNonNull(calls.get(c), "call is null");
      if (mode != AggregateMode.SINGLE && !call.hasPartialState()) {
        AggregateCall.stateFields(call); // throws, saying how to plan it
      }
      if (call.hasPartialState()) {
        stateCounts[c] = AggregateCall.stateFields(call).size();
      }
      if (mode == AggregateMode.FINAL) {
        filterColumns[c] = AggregateCall.NO_FILTER;
        byColumns[c] = AggregateCall.NO_ARGUMENT;
        inputColumns[c] = state;
        for (Field expected : AggregateCall.stateFields(call)) {
          checkColumn(fields, state, "state of " + call);
          checkType(fields.get(state), expected.getType(), call);
          state++;
        }
      } else {
        inputColumns[c] = call.argument();
        filterColumns[c] = call.filter();
        byColumns[c] = call.by();
        if (call.by() != AggregateCall.NO_ARGUMENT) {
          checkColumn(fields, call.by(), "second argument of " + call);
          checkType(fields.get(call.by()), call.byType().orElseThrow(), call);
        }
        if (call.hasFilter()) {
          checkColumn(fields, call.filter(), "filter of " + call);
          checkType(fields.get(call.filter()), ArrowType.Bool.INSTANCE, call);
        }
        if (call.argument() != AggregateCall.NO_ARGUMENT) {
          checkColumn(fields, call.argument(), "argument of " + call);
          checkType(fields.get(call.argument()), call.argumentType().orElseThrow(), call);
        }
      }
      if (mode == AggregateMode.PARTIAL) {
        outputFields.addAll(AggregateCall.stateFields(call));
      } else {
        outputFields.add(call.resultField());
      }
    }
    this.output = new Schema(outputFields);
  }

  /**
   * How an aggregate operator describes itself, one line: {@code name[mode=FINAL, <more, >keys=[#0,
   * #1], aggs=[sum(#4), count(*)]]}; {@code more} is empty or ends with ", ".
   */
  static String describe(
      String name, AggregateMode mode, String more, int[] groupKeys, List<AggregateCall> calls) {
    return name
        + "[mode="
        + mode
        + ", "
        + more
        + "keys="
        + Arrays.stream(groupKeys)
            .mapToObj(k -> "#" + k)
            .collect(Collectors.joining(", ", "[", "]"))
        + ", aggs="
        + calls
        + "]";
  }

  private static void checkColumn(List<Field> fields, int column, String what) {
    if (column < 0 || column >= fields.size()) {
      throw new IllegalArgumentException(
          what + " is column " + column + ", outside the input's " + fields.size() + " columns");
    }
  }

  private static void checkType(Field actual, ArrowType expected, AggregateCall call) {
    if (!actual.getType().equals(expected)) {
      throw new IllegalArgumentException(
          call + " expects " + expected + " but the input column is " + actual);
    }
  }
}
