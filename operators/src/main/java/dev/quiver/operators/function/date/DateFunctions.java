package dev.quiver.operators.function.date;

import dev.quiver.operators.function.FunctionDefinition;
import java.util.List;

/** The date functions, each declared in its own class. */
public final class DateFunctions {
  private DateFunctions() {}

  public static List<FunctionDefinition> all() {
    return List.of(
        new DateTrunc(),
        new TimeBucket(),
        new DatePart(),
        new DateDiff(),
        new MakeDate(),
        new ToTimestampLtz(),
        Strftime.strftime(),
        Strftime.dateFormat(),
        new Strptime());
  }
}
