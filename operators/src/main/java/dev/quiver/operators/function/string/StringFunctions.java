package dev.quiver.operators.function.string;

import dev.quiver.operators.function.FunctionDefinition;
import java.util.List;

/** The string functions, each declared in its own class. */
public final class StringFunctions {
  private StringFunctions() {}

  public static List<FunctionDefinition> all() {
    return List.of(
        new Concat(),
        new ConcatWs(),
        new Pad(true),
        new Pad(false),
        new Length(),
        new Replace(),
        new Strpos(),
        new LeftRight(true),
        new LeftRight(false),
        new Reverse(),
        new Repeat(),
        new Affix(true),
        new Affix(false),
        new SplitPart(),
        new Initcap(),
        new Ascii(),
        new Chr(),
        new Md5(),
        new RegexpMatches(),
        new RegexpReplace(),
        new RegexpExtract());
  }
}
