package dev.quiver.operators.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Per-evaluation state: the batch, the allocator for intermediate vectors, and scratch arrays.
 *
 * <p>Every vector a kernel allocates is registered here and closed by {@link #release()} once the
 * evaluation is over, except the one result handed to the caller ({@link #detach}). Scratch arrays
 * ({@link #ints}, {@link #bytes}, {@link #longs}, {@link #doubles}) come from pools that are reused
 * batch after batch, so steady-state evaluation allocates no Java arrays.
 */
public final class EvalContext {
  private final List<FieldVector> temporaries = new ArrayList<>();
  private final Pool<int[]> ints = new Pool<>(array -> array.length);
  private final Pool<byte[]> bytes = new Pool<>(array -> array.length);
  private final Pool<long[]> longs = new Pool<>(array -> array.length);
  private final Pool<double[]> doubles = new Pool<>(array -> array.length);
  private int[] identity = new int[0];
  private BufferAllocator allocator;
  private VectorSchemaRoot batch;
  private int rows;

  /** Starts an evaluation over {@code rows} rows of {@code batch} (null for a constant). */
  void start(VectorSchemaRoot batch, int rows, BufferAllocator allocator) {
    if (!temporaries.isEmpty()) {
      throw new IllegalStateException("previous evaluation was not released");
    }
    this.batch = batch;
    this.rows = rows;
    this.allocator = allocator;
    ints.reset();
    bytes.reset();
    longs.reset();
    doubles.reset();
  }

  public VectorSchemaRoot batch() {
    return batch;
  }

  public int rows() {
    return rows;
  }

  public BufferAllocator allocator() {
    return allocator;
  }

  /** Every row of the batch. */
  public Selection all() {
    if (identity.length < rows) {
      identity = new int[Math.max(rows, identity.length * 2)];
      for (int i = 0; i < identity.length; i++) {
        identity[i] = i;
      }
    }
    return new Selection(identity, rows, true);
  }

  /** A new zeroed vector of {@code field} with room for every row, closed by {@link #release}. */
  public FieldVector newVector(Field field) {
    return newVector(field, rows);
  }

  public FieldVector newVector(Field field, int valueCount) {
    FieldVector vector = field.createVector(allocator);
    temporaries.add(vector);
    if (vector instanceof BaseVariableWidthVector) {
      ((BaseVariableWidthVector) vector).allocateNew(Math.max(valueCount, 1) * 16L, valueCount);
    } else {
      ((BaseFixedWidthVector) vector).allocateNew(valueCount); // zeroed: every row NULL
    }
    return vector;
  }

  /** Removes {@code vector} from the temporaries: the caller now owns it. */
  void detach(FieldVector vector) {
    for (int i = temporaries.size() - 1; i >= 0; i--) {
      if (temporaries.get(i) == vector) {
        temporaries.remove(i);
        return;
      }
    }
    throw new IllegalArgumentException("not a temporary of this evaluation: " + vector.getField());
  }

  boolean isTemporary(FieldVector vector) {
    for (FieldVector temporary : temporaries) {
      if (temporary == vector) {
        return true;
      }
    }
    return false;
  }

  /** An int array of at least {@code length} with arbitrary contents, until the next start. */
  public int[] ints(int length) {
    int[] array = ints.take(length);
    if (array == null) {
      array = ints.add(new int[Math.max(length, rows)]);
    }
    return array;
  }

  /** A byte array of at least {@code length}, valid until the next {@link #start}. */
  public byte[] bytes(int length) {
    byte[] array = bytes.take(length);
    if (array == null) {
      array = bytes.add(new byte[Math.max(length, rows)]);
    }
    return array;
  }

  /** A long array of at least {@code length}, valid until the next {@link #start}. */
  public long[] longs(int length) {
    long[] array = longs.take(length);
    if (array == null) {
      array = longs.add(new long[Math.max(length, rows)]);
    }
    return array;
  }

  /** A double array of at least {@code length}, valid until the next {@link #start}. */
  public double[] doubles(int length) {
    double[] array = doubles.take(length);
    if (array == null) {
      array = doubles.add(new double[Math.max(length, rows)]);
    }
    return array;
  }

  /** Closes every temporary vector. */
  void release() {
    try {
      AutoCloseables.close(temporaries);
    } catch (Exception e) {
      throw new IllegalStateException("failed to release evaluation vectors", e);
    } finally {
      temporaries.clear();
      batch = null;
    }
  }

  /**
   * Arrays handed out in request order: an evaluation asks for the same sizes batch after batch, so
   * the i-th request usually fits the array that served it last time.
   */
  private static final class Pool<T> {
    private final List<T> arrays = new ArrayList<>();
    private final ToIntFunction<T> length;
    private int next;

    Pool(ToIntFunction<T> length) {
      this.length = length;
    }

    void reset() {
      next = 0;
    }

    T take(int length) {
      if (next < arrays.size() && this.length.applyAsInt(arrays.get(next)) >= length) {
        return arrays.get(next++);
      }
      return null;
    }

    T add(T array) {
      if (next < arrays.size()) {
        arrays.set(next++, array);
      } else {
        arrays.add(array);
        next++;
      }
      return array;
    }
  }
}
