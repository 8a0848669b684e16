package dev.quiver.flink.slt;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Result rows as the text {@code .slt} files expect: one line per row, values separated by one
 * space. Rendering is exact except for doubles, whose last digits depend on the order in which
 * parallel tasks add them up.
 *
 * <table>
 *   <caption>Value to text</caption>
 *   <tr><th>value</th><th>text</th></tr>
 *   <tr><td>NULL</td><td>{@code NULL}</td></tr>
 *   <tr><td>integer</td><td>its digits: {@code -12}</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>plain, with exactly s decimals: {@code 2.50}, {@code 3.00}</td></tr>
 *   <tr><td>DOUBLE, REAL</td><td>rounded to 12 significant digits, no trailing zeros, at least
 *       one decimal: {@code 2.5}, {@code 3.0}, {@code 0.333333333333}; {@code NaN},
 *       {@code Infinity}, {@code -Infinity}</td></tr>
 *   <tr><td>VARCHAR</td><td>the string; the empty string is {@code (empty)}</td></tr>
 *   <tr><td>BOOLEAN</td><td>{@code true}, {@code false}</td></tr>
 *   <tr><td>DATE</td><td>ISO: {@code 2024-02-29}</td></tr>
 *   <tr><td>TIMESTAMP</td><td>{@code 2024-02-29 13:04:05}, a fraction of a second without
 *       trailing zeros: {@code 13:04:05.25}</td></tr>
 * </table>
 */
final class ResultText {
  private static final MathContext DOUBLE_DIGITS = new MathContext(12);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

  private ResultText() {}

  /** The lines of {@code rows}. */
  static List<String> lines(List<List<Object>> rows) {
    List<String> lines = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<String> values = new ArrayList<>(row.size());
      for (Object value : row) {
        values.add(text(value));
      }
      lines.add(String.join(" ", values).stripTrailing());
    }
    return lines;
  }

  /** The text of one value. */
  static String text(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof Double || value instanceof Float) {
      return text(((Number) value).doubleValue());
    }
    if (value instanceof String string) {
      return string.isEmpty() ? "(empty)" : string;
    }
    if (value instanceof LocalDateTime timestamp) {
      return text(timestamp);
    }
    return value.toString(); // integers, booleans, LocalDate (ISO)
  }

  private static String text(LocalDateTime value) {
    String text = value.toLocalDate() + " " + TIME.format(value.toLocalTime());
    if (value.getNano() == 0) {
      return text;
    }
    String fraction = String.format(java.util.Locale.ROOT, "%09d", value.getNano());
    return text + "." + fraction.replaceAll("0+$", "");
  }

  private static String text(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return Double.toString(value);
    }
    String plain = new BigDecimal(value).round(DOUBLE_DIGITS).stripTrailingZeros().toPlainString();
    return plain.contains(".") ? plain : plain + ".0";
  }

  /**
   * Checks the result columns against a query's type letters: I integer, R floating point, N
   * decimal, T text, B boolean, D date, P timestamp (a point in time).
   *
   * @return empty if they agree, else what differs
   */
  static String checkTypes(String letters, Schema schema) {
    List<Field> fields = schema.getFields();
    if (letters.length() != fields.size()) {
      return letters.length() + " type letters for " + fields.size() + " columns " + fields;
    }
    StringBuilder actual = new StringBuilder();
    for (Field field : fields) {
      actual.append(letter(field.getType()));
    }
    return actual.toString().equals(letters)
        ? ""
        : "column types " + actual + " (" + fields + "), expected " + letters;
  }

  /** The type letter of {@code type}, {@code ?} for types no letter stands for. */
  static char letter(ArrowType type) {
    return switch (type.getTypeID()) {
      case Int -> 'I';
      case FloatingPoint -> 'R';
      case Decimal -> 'N';
      case Utf8, LargeUtf8 -> 'T';
      case Bool -> 'B';
      case Date -> 'D';
      case Timestamp -> 'P';
      default -> '?';
    };
  }
}
