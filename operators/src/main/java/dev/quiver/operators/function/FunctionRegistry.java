package dev.quiver.operators.function;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.function.date.DateFunctions;
import dev.quiver.operators.function.math.MathFunctions;
import dev.quiver.operators.function.string.StringFunctions;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every library function Quiver runs, by name and alias. The one place the SQL front end, plan
 * builders and the expression compiler look functions up.
 */
public final class FunctionRegistry {
  private static final Map<String, FunctionDefinition> BY_NAME = index();

  private FunctionRegistry() {}

  private static Map<String, FunctionDefinition> index() {
    List<FunctionDefinition> all = new ArrayList<>();
    all.addAll(StringFunctions.all());
    all.addAll(MathFunctions.all());
    all.addAll(DateFunctions.all());
    Map<String, FunctionDefinition> byName = new LinkedHashMap<>();
    for (FunctionDefinition function : all) {
      List<String> names = new ArrayList<>(function.aliases());
      names.add(0, function.name());
      for (String name : names) {
        if (!name.equals(name.toLowerCase(Locale.ROOT))) {
          throw new IllegalStateException("function names are lower case: " + name);
        }
        FunctionDefinition previous = byName.put(name, function);
        if (previous != null) {
          throw new IllegalStateException("two functions named " + name);
        }
      }
    }
    return byName;
  }

  /** The function called {@code name} (any case), if there is one. */
  public static Optional<FunctionDefinition> lookup(String name) {
    return Optional.ofNullable(BY_NAME.get(name.toLowerCase(Locale.ROOT)));
  }

  /** Every name and alias with its function, in declaration order. */
  public static Map<String, FunctionDefinition> names() {
    return java.util.Collections.unmodifiableMap(BY_NAME);
  }

  /** The distinct functions. */
  public static Collection<FunctionDefinition> functions() {
    return new java.util.LinkedHashSet<>(BY_NAME.values());
  }

  /** A call of {@code name}, typed by the function; a QuiverException for a wrong call. */
  public static FunctionCall call(String name, Expr... args) {
    return call(name, List.of(args));
  }

  /** A call of {@code name}, typed by the function; a QuiverException for a wrong call. */
  public static FunctionCall call(String name, List<Expr> args) {
    FunctionDefinition function =
        lookup(name)
            .orElseThrow(
                () -> new QuiverException(ErrorCode.INVALID_ARGUMENT, "no function " + name));
    return call(function, args);
  }

  /** A call of {@code function}, typed by it; a QuiverException for a wrong call. */
  public static FunctionCall call(FunctionDefinition function, List<Expr> args) {
    if (args.size() < function.minArgs() || args.size() > function.maxArgs()) {
      throw new QuiverException(
          ErrorCode.INVALID_ARGUMENT,
          "wrong number of arguments (" + args.size() + ") for " + function.usage());
    }
    Signature signature = function.resolve(args);
    if (signature == null) {
      List<Object> types = new ArrayList<>();
      for (Expr arg : args) {
        types.add(arg.sqlType());
      }
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_TYPE,
          function.name()
              + " does not accept arguments of types "
              + types
              + "; use "
              + function.usage());
    }
    return new FunctionCall(function.name(), args, signature, function.nullable(args));
  }

  /** The definition behind a call. */
  public static FunctionDefinition definition(FunctionCall call) {
    FunctionDefinition function = BY_NAME.get(call.name());
    if (function == null) {
      throw new IllegalStateException("no function " + call.name() + " in the registry");
    }
    return function;
  }
}
