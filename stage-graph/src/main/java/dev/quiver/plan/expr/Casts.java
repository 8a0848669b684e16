package dev.quiver.plan.expr;

import dev.quiver.plan.type.SqlType;

/**
 * Which CASTs exist. Numbers, booleans and strings convert among each other; strings convert to and
 * from DATE and TIMESTAMP, which convert to each other; an interval casts only to itself.
 */
public final class Casts {
  private Casts() {}

  public static boolean canCast(SqlType from, SqlType to) {
    if (from.equals(to) || from.kind() == to.kind() && !from.isDecimal()) {
      return true;
    }
    if (from.isInterval() || to.isInterval()) {
      return false;
    }
    boolean fromDate = from.isDatetime();
    boolean toDate = to.isDatetime();
    if (fromDate || toDate) {
      return fromDate && toDate
          || from.kind() == SqlType.Kind.VARCHAR
          || to.kind() == SqlType.Kind.VARCHAR;
    }
    return true; // booleans, numbers and strings
  }
}
