package dev.quiver.operators.join;

import dev.quiver.operators.kernel.WindowBuffers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** The checks of the join operators: input numbers, input order, batch schemas and key columns. */
final class JoinInputs {
  private JoinInputs() {}

  /**
   * Checks a batch pushed to {@code input} of {@code operator}; closes the batch and throws when it
   * is not acceptable, since the operator owns it from the call on.
   */
  static void checkAdd(
      Object operator,
      int input,
      VectorSchemaRoot batch,
      Schema build,
      Schema probe,
      boolean buildFinished,
      boolean probeFinished,
      boolean closed) {
    try {
      checkInput(operator, input, buildFinished, probeFinished, closed);
      checkSchema(operator, input, batch, input == 0 ? build : probe);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
  }

  /** Checks that {@code input} may be finished now. */
  static void checkFinish(
      Object operator, int input, boolean buildFinished, boolean probeFinished, boolean closed) {
    checkInput(operator, input, buildFinished, probeFinished, closed);
  }

  private static void checkInput(
      Object operator, int input, boolean buildFinished, boolean probeFinished, boolean closed) {
    if (closed) {
      throw new IllegalStateException(operator + " is closed");
    }
    if (input != 0 && input != 1) {
      throw new IllegalArgumentException(
          operator + " has inputs 0 (build) and 1 (probe), not " + input);
    }
    if (input == 0 && buildFinished) {
      throw new IllegalStateException(operator + ": the build input (0) is already finished");
    }
    if (input == 1 && !buildFinished) {
      throw new IllegalStateException(
          operator + ": the build input (0) must be finished before probe input (1) is used");
    }
    if (input == 1 && probeFinished) {
      throw new IllegalStateException(operator + ": the probe input (1) is already finished");
    }
  }

  /** Checks that {@code batch} of {@code input} has the column types of {@code expected}. */
  static void checkSchema(Object operator, int input, VectorSchemaRoot batch, Schema expected) {
    List<FieldVector> vectors = batch.getFieldVectors();
    List<Field> fields = expected.getFields();
    if (vectors.size() != fields.size()) {
      throw new IllegalArgumentException(
          operator
              + ": a batch of input "
              + input
              + " has "
              + vectors.size()
              + " columns, expected "
              + fields.size());
    }
    for (int i = 0; i < fields.size(); i++) {
      if (!vectors.get(i).getField().getType().equals(fields.get(i).getType())) {
        throw new IllegalArgumentException(
            operator
                + ": column "
                + i
                + " of input "
                + input
                + " is "
                + vectors.get(i).getField().getType()
                + ", expected "
                + fields.get(i).getType());
      }
    }
  }

  /** Checks that the key columns pair up, exist and have equal types on both sides. */
  static void checkKeys(Schema build, int[] buildKeys, Schema probe, int[] probeKeys) {
    if (buildKeys.length == 0 || buildKeys.length != probeKeys.length) {
      throw new IllegalArgumentException(
          "a hash join needs one or more pairs of key columns, got build keys "
              + Arrays.toString(buildKeys)
              + " and probe keys "
              + Arrays.toString(probeKeys)
              + " (use NestedLoopJoinOperator without equi keys)");
    }
    for (int i = 0; i < buildKeys.length; i++) {
      Field buildKey = field(build, buildKeys[i], "build");
      Field probeKey = field(probe, probeKeys[i], "probe");
      if (!buildKey.getType().equals(probeKey.getType())) {
        throw new IllegalArgumentException(
            "join key " + i + " has build type " + buildKey + " but probe type " + probeKey);
      }
    }
  }

  /**
   * Checks that {@code column} of {@code schema} holds window ends: a TIMESTAMP (microseconds, no
   * time zone), as the windowing table functions make them.
   */
  static void checkWindowEnd(Object operator, Schema schema, int column, String side) {
    WindowBuffers.checkEndColumn(operator, schema, column, side);
  }

  /** The fields of {@code columns} of {@code schema}, in that order. */
  static List<Field> fields(Schema schema, int[] columns) {
    List<Field> fields = new ArrayList<>(columns.length);
    for (int column : columns) {
      fields.add(schema.getFields().get(column));
    }
    return fields;
  }

  /** Column indices as EXPLAIN prints them: {@code [#0, #2]}. */
  static String describe(int[] columns) {
    StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < columns.length; i++) {
      text.append(i == 0 ? "#" : ", #").append(columns[i]);
    }
    return text.append(']').toString();
  }

  private static Field field(Schema schema, int column, String side) {
    if (column < 0 || column >= schema.getFields().size()) {
      throw new IllegalArgumentException(
          side + " key column " + column + " is outside the " + side + " schema " + schema);
    }
    return schema.getFields().get(column);
  }
}
