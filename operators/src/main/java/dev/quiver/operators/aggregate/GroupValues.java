package dev.quiver.operators.aggregate;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One value per group of any type MIN and MAX take (bool, ints, floats, decimal128, utf8, dates,
 * timestamps), or none, in primitive arrays: the picked row of {@link ArgMinMaxAccumulator}. Ints,
 * dates, timestamps and booleans are kept widened to a {@code long}, floats as a {@code double},
 * decimals as two words, strings as one {@code byte[]} per group (made only when a value is set).
 *
 * <p>{@link #offer} runs one loop per batch specialised by type and says which rows won their
 * group; {@link #copy} then takes the values of those rows.
 */
final class GroupValues {
  /** What a {@code byte[]} costs beyond its bytes (header, reference). */
  private enum Kind {
    LONG,
    BOOL,
    DOUBLE,
    DECIMAL,
    STRING
  }

  private final Kind kind;
  private final Reservation reservation;
  private boolean[] set = new boolean[0];
  private long[] longs = new long[0]; // LONG, BOOL; DECIMAL: the low word
  private long[] highs = new long[0]; // DECIMAL: the high word
  private double[] doubles = new double[0];
  private final GroupStrings strings;

  GroupValues(ArrowType type, Reservation reservation) {
    this.reservation = reservation;
    this.strings = new GroupStrings(reservation);
    switch (type.getTypeID()) {
      case Int:
      case Date:
      case Timestamp:
        kind = Kind.LONG;
        break;
      case Bool:
        kind = Kind.BOOL;
        break;
      case FloatingPoint:
        kind = Kind.DOUBLE;
        break;
      case Decimal:
        kind = Kind.DECIMAL;
        break;
      case Utf8:
        kind = Kind.STRING;
        break;
      default:
        throw new IllegalArgumentException("no group values of type " + type);
    }
  }

  void ensureGroups(int groups) {
    strings.newBatch();
    if (groups <= set.length) {
      return;
    }
    int capacity = Reservation.grownCapacity(set.length, groups);
    int perGroup =
        1
            + switch (kind) {
              case LONG, BOOL, DOUBLE, STRING -> Long.BYTES;
              case DECIMAL -> 2 * Long.BYTES;
            };
    reservation.reserve((long) (capacity - set.length) * perGroup);
    set = Arrays.copyOf(set, capacity);
    switch (kind) {
      case LONG, BOOL -> longs = Arrays.copyOf(longs, capacity);
      case DOUBLE -> doubles = Arrays.copyOf(doubles, capacity);
      case DECIMAL -> {
        longs = Arrays.copyOf(longs, capacity);
        highs = Arrays.copyOf(highs, capacity);
      }
      case STRING -> strings.grow(capacity);
    }
  }

  /** Reserves what setting every one of {@code rows} values of {@code values} could hold. */
  void reserveValues(FieldVector values, int rows) {
    if (kind != Kind.STRING) {
      return;
    }
    strings.reserveFor(values, rows);
  }

  boolean isSet(int group) {
    return set[group];
  }

  /**
   * Offers rows {@code [0, rows)} of {@code values} whose {@code skip} column is not NULL (skip may
   * be null): a row replaces its group's value when the group has none or the row's value is
   * smaller ({@code max}: larger). Writes the rows that replaced one to {@code winners}, in order,
   * and returns their count. {@code longs} and {@code doubles} are scratch of {@code rows} entries.
   */
  int offer(
      FieldVector values,
      FieldVector skip,
      int[] groupIds,
      int rows,
      boolean max,
      int[] winners,
      long[] scratchLongs,
      double[] scratchDoubles) {
    ArrowBuf validity = Columns.validity(values);
    ArrowBuf other = skip == null ? null : Columns.validity(skip);
    int sign = max ? 1 : -1;
    int won = 0;
    boolean[] set = this.set;
    switch (kind) {
      case LONG, BOOL -> {
        readLongs(values, rows, scratchLongs);
        long[] longs = this.longs;
        for (int i = 0; i < rows; i++) {
          if ((validity == null || Columns.isSet(validity, i))
              && (other == null || Columns.isSet(other, i))) {
            int group = groupIds[i];
            long x = scratchLongs[i];
            if (!set[group] || Long.compare(x, longs[group]) * sign > 0) {
              set[group] = true;
              longs[group] = x;
              winners[won++] = i;
            }
          }
        }
      }
      case DOUBLE -> {
        Columns.widenFloats(values, rows, scratchDoubles);
        double[] doubles = this.doubles;
        for (int i = 0; i < rows; i++) {
          if ((validity == null || Columns.isSet(validity, i))
              && (other == null || Columns.isSet(other, i))) {
            int group = groupIds[i];
            double x = scratchDoubles[i];
            if (!set[group] || Double.compare(x, doubles[group]) * sign > 0) {
              set[group] = true;
              doubles[group] = x;
              winners[won++] = i;
            }
          }
        }
      }
      case DECIMAL -> {
        ArrowBuf data = values.getDataBuffer();
        long[] lows = this.longs;
        long[] highs = this.highs;
        for (int i = 0; i < rows; i++) {
          if ((validity == null || Columns.isSet(validity, i))
              && (other == null || Columns.isSet(other, i))) {
            int group = groupIds[i];
            long low = data.getLong((long) i << 4);
            long high = data.getLong(((long) i << 4) + 8);
            int order =
                high != highs[group]
                    ? Long.compare(high, highs[group])
                    : Long.compareUnsigned(low, lows[group]);
            if (!set[group] || order * sign > 0) {
              set[group] = true;
              lows[group] = low;
              highs[group] = high;
              winners[won++] = i;
            }
          }
        }
      }
      case STRING -> {
        ArrowBuf offsets = values.getOffsetBuffer();
        ArrowBuf data = values.getDataBuffer();
        for (int i = 0; i < rows; i++) {
          if ((validity == null || Columns.isSet(validity, i))
              && (other == null || Columns.isSet(other, i))) {
            int group = groupIds[i];
            int start = offsets.getInt((long) i << 2);
            int length = offsets.getInt((long) (i + 1) << 2) - start;
            if (!set[group] || strings.compare(data, start, length, group) * sign > 0) {
              setString(group, data, start, length);
              winners[won++] = i;
            }
          }
        }
      }
    }
    return won;
  }

  /** Sets the value of group {@code groupIds[row]} to row {@code row} of {@code values}, each. */
  void copy(FieldVector values, int[] groupIds, int[] rows, int count) {
    switch (kind) {
      case LONG -> {
        ArrowBuf data = values.getDataBuffer();
        int width = Columns.width(values);
        for (int r = 0; r < count; r++) {
          int row = rows[r];
          long value =
              switch (width) {
                case 1 -> data.getByte(row);
                case 2 -> data.getShort((long) row << 1);
                case 4 -> data.getInt((long) row << 2);
                default -> data.getLong((long) row << 3);
              };
          set(groupIds[row], value);
        }
      }
      case BOOL -> {
        ArrowBuf data = values.getDataBuffer();
        for (int r = 0; r < count; r++) {
          int row = rows[r];
          set(groupIds[row], Columns.isSet(data, row) ? 1 : 0);
        }
      }
      case DOUBLE -> {
        ArrowBuf data = values.getDataBuffer();
        boolean single = Columns.width(values) == Float.BYTES;
        for (int r = 0; r < count; r++) {
          int row = rows[r];
          int group = groupIds[row];
          set[group] = true;
          doubles[group] =
              single ? data.getFloat((long) row << 2) : data.getDouble((long) row << 3);
        }
      }
      case DECIMAL -> {
        ArrowBuf data = values.getDataBuffer();
        for (int r = 0; r < count; r++) {
          int row = rows[r];
          int group = groupIds[row];
          set[group] = true;
          longs[group] = data.getLong((long) row << 4);
          highs[group] = data.getLong(((long) row << 4) + 8);
        }
      }
      case STRING -> {
        ArrowBuf offsets = values.getOffsetBuffer();
        ArrowBuf data = values.getDataBuffer();
        for (int r = 0; r < count; r++) {
          int row = rows[r];
          int start = offsets.getInt((long) row << 2);
          setString(groupIds[row], data, start, offsets.getInt((long) (row + 1) << 2) - start);
        }
      }
    }
  }

  private void set(int group, long value) {
    set[group] = true;
    longs[group] = value;
  }

  /** Writes the values of groups {@code [from, from + count)}, NULL where none is set. */
  void write(int from, int count, FieldVector out) {
    if (kind == Kind.STRING) {
      strings.write(from, count, (VarCharVector) out);
      return;
    }
    Columns.allocate(out, count);
    int width = kind == Kind.BOOL ? 0 : Columns.width(out);
    for (int i = 0; i < count; i++) {
      write(from + i, out, width, i);
    }
    out.setValueCount(count);
  }

  /** Writes the values of groups {@code groupIds[0, count)}, NULL where none is set. */
  void write(int[] groupIds, int count, FieldVector out) {
    if (kind == Kind.STRING) {
      strings.write(groupIds, count, (VarCharVector) out);
      return;
    }
    Columns.allocate(out, count);
    int width = kind == Kind.BOOL ? 0 : Columns.width(out);
    for (int i = 0; i < count; i++) {
      write(groupIds[i], out, width, i);
    }
    out.setValueCount(count);
  }

  /**
   * The value of {@code group} (not a string) at {@code index} of {@code out}, {@code width} wide.
   */
  private void write(int group, FieldVector out, int width, int index) {
    if (!set[group]) {
      return;
    }
    ArrowBuf data = out.getDataBuffer();
    switch (kind) {
      case LONG -> Columns.setInt(out, width, index, longs[group]);
      case BOOL -> {
        if (longs[group] != 0) {
          BitVectorHelper.setBit(data, index);
        }
        BitVectorHelper.setBit(out.getValidityBuffer(), index);
      }
      case DOUBLE -> {
        if (width == Float.BYTES) {
          data.setFloat((long) index << 2, (float) doubles[group]);
          BitVectorHelper.setBit(out.getValidityBuffer(), index);
        } else {
          Columns.setDouble(out, index, doubles[group]);
        }
      }
      case DECIMAL -> Columns.setDecimal(out, index, longs[group], highs[group]);
      default -> throw new IllegalStateException("strings are written apart");
    }
  }

  private void setString(int group, ArrowBuf data, int start, int length) {
    strings.set(group, data, start, length);
    set[group] = true;
  }

  /** Reads rows {@code [0, rows)} of an integer, date, timestamp or boolean column as longs. */
  private void readLongs(FieldVector values, int rows, long[] out) {
    if (kind == Kind.BOOL) {
      ArrowBuf data = values.getDataBuffer();
      for (int i = 0; i < rows; i++) {
        out[i] = Columns.isSet(data, i) ? 1 : 0;
      }
    } else {
      Columns.widenInts(values, rows, out);
    }
  }
}
