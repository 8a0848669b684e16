package dev.quiver.cli.tpch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares an engine's answer with DuckDB's, row by row in order and column by column. Values are
 * normalized first: integers as Long, dates as LocalDate, BigInteger as BigDecimal. Decimals must
 * be equal exactly after rounding to the smaller of the two scales (the engines' division rules
 * give different scales). Two doubles agree within 1e-9 relative. Where one engine computes a
 * double and the other a decimal (DuckDB's AVG of a decimal is a double, Quiver's and Flink's a
 * decimal), the double rounded to the decimal's scale must equal the decimal, give or take one unit
 * in its last place, or, for a decimal with more digits than a double carries, agree with it within
 * 1e-9 relative, as two doubles must.
 */
public final class ResultComparison {
  private ResultComparison() {}

  /** The remaining rows of {@code rs}, normalized. */
  public static List<List<Object>> rows(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>(meta.getColumnCount());
      for (int c = 1; c <= meta.getColumnCount(); c++) {
        row.add(normalize(rs.getObject(c)));
      }
      rows.add(row);
    }
    return rows;
  }

  /** Each row of {@code rows} normalized. */
  public static List<List<Object>> normalize(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      out.add(row(row));
    }
    return out;
  }

  /** {@code values} as one normalized row. */
  public static List<Object> row(List<?> values) {
    List<Object> row = new ArrayList<>(values.size());
    for (Object value : values) {
      row.add(normalize(value));
    }
    return row;
  }

  public static Object normalize(Object value) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof Date date) {
      return date.toLocalDate();
    }
    if (value instanceof Timestamp ts) {
      return ts.toLocalDateTime();
    }
    if (value instanceof BigInteger big) {
      return new BigDecimal(big);
    }
    return value;
  }

  /** The first difference, or null when both answers agree. */
  public static String difference(List<List<Object>> expected, List<List<Object>> actual) {
    if (expected.size() != actual.size()) {
      return "expected " + expected.size() + " rows but got " + actual.size() + sample(actual);
    }
    for (int r = 0; r < expected.size(); r++) {
      List<Object> e = expected.get(r);
      List<Object> a = actual.get(r);
      if (e.size() != a.size()) {
        return "row " + r + ": expected " + e.size() + " columns but got " + a.size();
      }
      for (int c = 0; c < e.size(); c++) {
        if (!same(e.get(c), a.get(c))) {
          return "row " + r + " column " + c + ": expected " + e + " but got " + a;
        }
      }
    }
    return null;
  }

  private static String sample(List<List<Object>> rows) {
    return rows.isEmpty() ? "" : "; first row " + rows.get(0);
  }

  public static boolean same(Object e, Object a) {
    if (e == null || a == null) {
      return e == a;
    }
    if (e instanceof Double x && a instanceof BigDecimal d) {
      return closeAtScale(x, d);
    }
    if (a instanceof Double x && e instanceof BigDecimal d) {
      return closeAtScale(x, d);
    }
    if (e instanceof Double || a instanceof Double) {
      if (!(e instanceof Number en) || !(a instanceof Number an)) {
        return false;
      }
      double x = en.doubleValue();
      double y = an.doubleValue();
      return x == y || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
    }
    if (e instanceof BigDecimal || a instanceof BigDecimal) {
      if (!(e instanceof Number) || !(a instanceof Number)) {
        return false;
      }
      BigDecimal x = decimal(e);
      BigDecimal y = decimal(a);
      int scale = Math.min(x.scale(), y.scale());
      return x.setScale(scale, RoundingMode.HALF_UP)
              .compareTo(y.setScale(scale, RoundingMode.HALF_UP))
          == 0;
    }
    if (e instanceof LocalDate || a instanceof LocalDate) {
      return e.equals(a);
    }
    return e.equals(a);
  }

  private static boolean closeAtScale(double value, BigDecimal decimal) {
    if (!Double.isFinite(value)) {
      return false;
    }
    BigDecimal rounded = BigDecimal.valueOf(value).setScale(decimal.scale(), RoundingMode.HALF_UP);
    if (rounded.subtract(decimal).abs().compareTo(BigDecimal.ONE.movePointLeft(decimal.scale()))
        <= 0) {
      return true;
    }
    double other = decimal.doubleValue();
    return Math.abs(value - other) <= 1e-9 * Math.max(Math.abs(value), Math.abs(other));
  }

  private static BigDecimal decimal(Object value) {
    return value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
  }
}
