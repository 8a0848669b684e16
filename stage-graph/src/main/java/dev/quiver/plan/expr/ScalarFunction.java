package dev.quiver.plan.expr;

/**
 * The functions a {@link Call} can apply, with their SQL spelling. Argument and result types are
 * resolved by {@link Signatures}; see there for what each accepts.
 */
public enum ScalarFunction {
  ADD("+", Form.INFIX, 2, 2),
  SUBTRACT("-", Form.INFIX, 2, 2),
  MULTIPLY("*", Form.INFIX, 2, 2),
  DIVIDE("/", Form.INFIX, 2, 2),
  MODULO("%", Form.INFIX, 2, 2),
  NEGATE("-", Form.PREFIX, 1, 1),
  EQUAL("=", Form.INFIX, 2, 2),
  NOT_EQUAL("<>", Form.INFIX, 2, 2),
  LESS_THAN("<", Form.INFIX, 2, 2),
  LESS_THAN_OR_EQUAL("<=", Form.INFIX, 2, 2),
  GREATER_THAN(">", Form.INFIX, 2, 2),
  GREATER_THAN_OR_EQUAL(">=", Form.INFIX, 2, 2),
  /** SQL three-valued AND of two or more operands. */
  AND("AND", Form.INFIX, 2, Integer.MAX_VALUE),
  /** SQL three-valued OR of two or more operands. */
  OR("OR", Form.INFIX, 2, Integer.MAX_VALUE),
  NOT("NOT", Form.PREFIX, 1, 1),
  IS_NULL("IS NULL", Form.POSTFIX, 1, 1),
  IS_NOT_NULL("IS NOT NULL", Form.POSTFIX, 1, 1),
  /** {@code x BETWEEN low AND high}, i.e. {@code low <= x AND x <= high}. */
  BETWEEN("BETWEEN", Form.SPECIAL, 3, 3),
  COALESCE("COALESCE", Form.FUNCTION, 1, Integer.MAX_VALUE),
  NULLIF("NULLIF", Form.FUNCTION, 2, 2),
  /** String concatenation {@code a || b}. */
  CONCAT("||", Form.INFIX, 2, 2),
  UPPER("UPPER", Form.FUNCTION, 1, 1),
  LOWER("LOWER", Form.FUNCTION, 1, 1),
  /** Length in characters (not bytes). */
  CHAR_LENGTH("CHAR_LENGTH", Form.FUNCTION, 1, 1),
  /** {@code TRIM(BOTH chars FROM s)}: arguments {@code (s)} (chars = ' ') or {@code (s, chars)}. */
  TRIM_BOTH("BOTH", Form.SPECIAL, 1, 2),
  TRIM_LEADING("LEADING", Form.SPECIAL, 1, 2),
  TRIM_TRAILING("TRAILING", Form.SPECIAL, 1, 2),
  /** {@code SUBSTRING(s FROM start [FOR length])}, 1-based, in characters. */
  SUBSTRING("SUBSTRING", Form.SPECIAL, 2, 3),
  ABS("ABS", Form.FUNCTION, 1, 1),
  /** {@code ROUND(x [, d])}, HALF_UP; {@code d} is an integer literal (default 0). */
  ROUND("ROUND", Form.FUNCTION, 1, 2),
  EXTRACT_YEAR("YEAR", Form.SPECIAL, 1, 1),
  EXTRACT_MONTH("MONTH", Form.SPECIAL, 1, 1),
  EXTRACT_DAY("DAY", Form.SPECIAL, 1, 1);

  /** How a call prints. */
  enum Form {
    INFIX,
    PREFIX,
    POSTFIX,
    FUNCTION,
    SPECIAL
  }

  private final String symbol;
  private final Form form;
  private final int minArgs;
  private final int maxArgs;

  ScalarFunction(String symbol, Form form, int minArgs, int maxArgs) {
    this.symbol = symbol;
    this.form = form;
    this.minArgs = minArgs;
    this.maxArgs = maxArgs;
  }

  /** The operator or function name as SQL spells it. */
  public String symbol() {
    return symbol;
  }

  Form form() {
    return form;
  }

  public int minArgs() {
    return minArgs;
  }

  public int maxArgs() {
    return maxArgs;
  }

  /** Whether any NULL argument makes the result NULL (so a NULL constant folds the call). */
  public boolean propagatesNull() {
    switch (this) {
      case AND:
      case OR:
      case IS_NULL:
      case IS_NOT_NULL:
      case COALESCE:
      case NULLIF:
      case BETWEEN: // NULL BETWEEN ... is NULL, but 1 BETWEEN NULL AND 0 is FALSE
        return false;
      default:
        return true;
    }
  }

  /** Whether this is one of the six comparisons. */
  public boolean isComparison() {
    return ordinal() >= EQUAL.ordinal() && ordinal() <= GREATER_THAN_OR_EQUAL.ordinal();
  }

  /**
   * This comparison with its operands swapped: {@code a < b} is {@code b > a}; {@code =} and {@code
   * <>} are their own.
   *
   * @throws IllegalArgumentException if this is no comparison
   */
  public ScalarFunction swapped() {
    return switch (this) {
      case LESS_THAN -> GREATER_THAN;
      case LESS_THAN_OR_EQUAL -> GREATER_THAN_OR_EQUAL;
      case GREATER_THAN -> LESS_THAN;
      case GREATER_THAN_OR_EQUAL -> LESS_THAN_OR_EQUAL;
      case EQUAL, NOT_EQUAL -> this;
      default -> throw new IllegalArgumentException("not a comparison: " + this);
    };
  }
}
