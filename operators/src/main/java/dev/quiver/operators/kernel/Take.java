package dev.quiver.operators.kernel;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Gather: builds a new vector (or batch) holding the rows {@code indices[from .. from + count)} of
 * a source, in that order, with nulls preserved. Indices may repeat and appear in any order.
 *
 * <p>The result is allocated from the given allocator, owned by the caller, and shares no memory
 * with the source: the source may be closed right after the call.
 *
 * <p>Supported layouts: booleans, every fixed-width type (integers, floats, decimals, dates, times,
 * timestamps, ...) and variable-width types with 32-bit offsets (utf8, binary). The type is
 * dispatched once per column; the copy is a tight loop over the Arrow buffers. Indices that come in
 * long ascending runs (a filter that keeps most rows) are copied run by run, one block per run
 * ({@link Runs}).
 */
public final class Take {
  private Take() {}

  /** The rows {@code indices[0 .. count)} of {@code source} as a new batch. */
  public static VectorSchemaRoot take(
      VectorSchemaRoot source, int[] indices, int count, BufferAllocator allocator) {
    return take(source, indices, 0, count, allocator);
  }

  /**
   * The rows {@code indices[from .. from + count)} of {@code source} as a new batch with the same
   * schema. A batch without columns yields a batch without columns of {@code count} rows.
   */
  public static VectorSchemaRoot take(
      VectorSchemaRoot source, int[] indices, int from, int count, BufferAllocator allocator) {
    requireNonNull(source, "source is null");
    requireNonNull(allocator, "allocator is null");
    checkIndices(indices, from, count, source.getRowCount());
    List<FieldVector> sources = source.getFieldVectors();
    List<FieldVector> columns = new ArrayList<>(sources.size());
    Runs runs = sources.isEmpty() ? null : Runs.of(indices, from, count); // once for all columns
    try {
      for (FieldVector column : sources) {
        columns.add(takeChecked(column, indices, from, count, runs, allocator));
      }
    } catch (RuntimeException | Error e) {
      closeSuppressing(columns, e);
      throw e;
    }
    return new VectorSchemaRoot(source.getSchema(), columns, count);
  }

  /** The values {@code indices[0 .. count)} of {@code source} as a new vector. */
  public static FieldVector take(
      FieldVector source, int[] indices, int count, BufferAllocator allocator) {
    return take(source, indices, 0, count, allocator);
  }

  /** The values {@code indices[from .. from + count)} of {@code source} as a new vector. */
  public static FieldVector take(
      FieldVector source, int[] indices, int from, int count, BufferAllocator allocator) {
    requireNonNull(source, "source is null");
    requireNonNull(allocator, "allocator is null");
    checkIndices(indices, from, count, source.getValueCount());
    return takeChecked(source, indices, from, count, Runs.of(indices, from, count), allocator);
  }

  /** {@code runs} describes the indices when they come in long ascending runs, else is null. */
  private static FieldVector takeChecked(
      FieldVector source,
      int[] indices,
      int from,
      int count,
      Runs runs,
      BufferAllocator allocator) {
    // One dispatch per column on the physical layout; the kernels below never look at the type.
    if (!(source instanceof BaseFixedWidthVector) && !(source instanceof BaseVariableWidthVector)) {
      throw new IllegalArgumentException(
          "take does not support " + source.getField() + " (" + source.getMinorType() + ")");
    }
    FieldVector target = source.getField().createVector(allocator);
    try {
      if (source instanceof BitVector) {
        FixedWidthTake.takeBits((BitVector) source, indices, from, count, (BitVector) target);
      } else if (source instanceof BaseFixedWidthVector && runs != null) {
        FixedWidthTake.takeRuns(
            (BaseFixedWidthVector) source,
            indices,
            from,
            count,
            runs,
            (BaseFixedWidthVector) target);
      } else if (source instanceof BaseFixedWidthVector) {
        FixedWidthTake.take(
            (BaseFixedWidthVector) source, indices, from, count, (BaseFixedWidthVector) target);
      } else if (runs != null) {
        VariableWidthTake.takeRuns(
            (BaseVariableWidthVector) source,
            indices,
            from,
            count,
            runs,
            (BaseVariableWidthVector) target);
      } else {
        VariableWidthTake.take(
            (BaseVariableWidthVector) source,
            indices,
            from,
            count,
            (BaseVariableWidthVector) target);
      }
      return target;
    } catch (RuntimeException | Error e) {
      target.close();
      throw e;
    }
  }

  /**
   * Validates all indices in one branch-free pass, so the kernels can trust them: a bad index would
   * otherwise read unrelated memory when Arrow's bounds checks are disabled for speed.
   */
  private static void checkIndices(int[] indices, int from, int count, int rowCount) {
    requireNonNull(indices, "indices is null");
    if (from < 0 || count < 0 || from > indices.length - count) {
      throw new IllegalArgumentException(
          "range ["
              + from
              + ", "
              + from
              + " + "
              + count
              + ") is outside indices of length "
              + indices.length);
    }
    int bad = 0;
    int end = from + count;
    for (int i = from; i < end; i++) {
      int index = indices[i];
      bad |= index | (rowCount - 1 - index); // negative iff index < 0 or index >= rowCount
    }
    if (bad < 0) {
      for (int i = from; i < end; i++) {
        if (indices[i] < 0 || indices[i] >= rowCount) {
          throw new IllegalArgumentException(
              "index " + indices[i] + " at position " + i + " is outside [0, " + rowCount + ")");
        }
      }
    }
  }

  private static void closeSuppressing(List<FieldVector> columns, Throwable failure) {
    try {
      AutoCloseables.close(columns);
    } catch (Exception e) {
      failure.addSuppressed(e);
    }
  }
}
