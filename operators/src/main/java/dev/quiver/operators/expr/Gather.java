package dev.quiver.operators.expr;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Merges the results of several branches into one vector: row {@code i} takes its value from {@code
 * sources[branch[i]]}, or is NULL when {@code branch[i] < 0}. The physical layout is dispatched
 * once per batch. Sets the value count of {@code out} to {@code totalRows}.
 */
final class Gather {
  private Gather() {}

  /** The column row {@code i} takes its value from, or null when it is NULL. */
  private static Col source(Col[] sources, int[] branch, int i) {
    int j = branch[i];
    return j < 0 || sources[j].isNull(i) ? null : sources[j];
  }

  static void gather(
      Col[] sources, int[] branch, Selection selection, FieldVector out, int totalRows) {
    int[] rows = selection.rows();
    int n = selection.size();
    ArrowBuf validity = out.getValidityBuffer();
    if (out instanceof VarCharVector) {
      Utf8Writer writer = new Utf8Writer((VarCharVector) out);
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        int j = branch[i];
        writer.begin(i);
        if (j >= 0 && !sources[j].isNull(i)) {
          Col c = sources[j];
          int start = c.start(i);
          writer.append(c.data, start, c.end(i) - start);
          writer.commit(i);
        }
      }
      writer.finish(totalRows);
      return;
    }
    ArrowBuf o = out.getDataBuffer();
    int width = out instanceof BitVector ? 0 : ((BaseFixedWidthVector) out).getTypeWidth();
    switch (width) {
      case 0:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          Col c = source(sources, branch, i);
          if (c != null) {
            Bitmaps.set(validity, i);
            if (Bitmaps.get(c.data, i & c.mask)) {
              Bitmaps.set(o, i);
            }
          }
        }
        break;
      case 4:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          Col c = source(sources, branch, i);
          if (c != null) {
            Bitmaps.set(validity, i);
            o.setInt((long) i << 2, c.data.getInt((long) (i & c.mask) << 2));
          }
        }
        break;
      case 8:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          Col c = source(sources, branch, i);
          if (c != null) {
            Bitmaps.set(validity, i);
            o.setLong((long) i << 3, c.data.getLong((long) (i & c.mask) << 3));
          }
        }
        break;
      case 16:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          Col c = source(sources, branch, i);
          if (c != null) {
            Bitmaps.set(validity, i);
            long at = (long) (i & c.mask) << 4;
            o.setLong((long) i << 4, c.data.getLong(at));
            o.setLong(((long) i << 4) + 8, c.data.getLong(at + 8));
          }
        }
        break;
      default: // TINYINT, SMALLINT
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          Col c = source(sources, branch, i);
          if (c != null) {
            Bitmaps.set(validity, i);
            o.setBytes((long) i * width, c.data, (long) (i & c.mask) * width, width);
          }
        }
    }
    out.setValueCount(totalRows);
  }
}
