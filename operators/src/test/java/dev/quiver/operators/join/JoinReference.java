package dev.quiver.operators.join;

import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * A naive row-at-a-time join over boxed rows, written straight from the definitions on {@link
 * JoinType}: every probe row is compared with every build row of equal key (without keys: every
 * build row), found through a map from boxed keys to build rows so that large inputs stay fast.
 * Left is the probe side.
 */
final class JoinReference {
  private JoinReference() {}

  /**
   * The rows {@code kind} produces; {@code filter} (build row, probe row) is the residual condition
   * or null. Keys match when every key value is non-null and equal.
   */
  static List<List<Object>> join(
      JoinKind kind,
      List<List<Object>> build,
      int buildWidth,
      int[] buildKeys,
      List<List<Object>> probe,
      int probeWidth,
      int[] probeKeys,
      BiPredicate<List<Object>, List<Object>> filter) {
    JoinType type = kind.type();
    List<List<Object>> out = new ArrayList<>();
    boolean[] buildMatched = new boolean[build.size()];
    boolean buildHasNull = build.stream().anyMatch(b -> hasNullKey(b, buildKeys));
    Map<List<Object>, List<Integer>> index = new HashMap<>();
    for (int i = 0; i < build.size(); i++) {
      if (!hasNullKey(build.get(i), buildKeys)) {
        index.computeIfAbsent(key(build.get(i), buildKeys), k -> new ArrayList<>()).add(i);
      }
    }
    for (List<Object> p : probe) {
      boolean matched = false;
      List<Integer> candidates =
          hasNullKey(p, probeKeys) ? List.of() : index.getOrDefault(key(p, probeKeys), List.of());
      for (int i : candidates) {
        List<Object> b = build.get(i);
        if (keysEqual(b, buildKeys, p, probeKeys) && (filter == null || filter.test(b, p))) {
          matched = true;
          buildMatched[i] = true;
          if (type.emitsPairs()) {
            out.add(concat(p, b));
          }
        }
      }
      boolean nullAwareUnknown =
          kind.nullAware() && !build.isEmpty() && (buildHasNull || hasNullKey(p, probeKeys));
      switch (type) {
        case LEFT, FULL -> {
          if (!matched) {
            out.add(concat(p, nulls(buildWidth)));
          }
        }
        case LEFT_SEMI -> {
          if (matched) {
            out.add(p);
          }
        }
        case LEFT_ANTI -> {
          if (!matched && !nullAwareUnknown) {
            out.add(p);
          }
        }
        case LEFT_MARK ->
            out.add(concat(p, List.of(matched ? true : nullAwareUnknown ? NULL : false)));
        default -> {}
      }
    }
    for (int i = 0; i < build.size(); i++) {
      boolean emit =
          switch (type) {
            case RIGHT, FULL, RIGHT_ANTI -> !buildMatched[i];
            case RIGHT_SEMI -> buildMatched[i];
            default -> false;
          };
      if (emit) {
        out.add(type.isRightSemiOrAnti() ? build.get(i) : concat(nulls(probeWidth), build.get(i)));
      }
    }
    return out;
  }

  /** A marker replaced by a Java null in mark rows (List.of rejects nulls). */
  private static final Object NULL = new Object();

  private static List<Object> key(List<Object> row, int[] keys) {
    return Arrays.stream(keys).mapToObj(row::get).toList();
  }

  static boolean hasNullKey(List<Object> row, int[] keys) {
    return Arrays.stream(keys).anyMatch(k -> row.get(k) == null);
  }

  private static boolean keysEqual(
      List<Object> b, int[] buildKeys, List<Object> p, int[] probeKeys) {
    for (int k = 0; k < buildKeys.length; k++) {
      Object left = p.get(probeKeys[k]);
      if (left == null || !Objects.equals(left, b.get(buildKeys[k]))) {
        return false;
      }
    }
    return true;
  }

  private static List<Object> concat(List<Object> a, List<Object> b) {
    List<Object> row = new ArrayList<>(a.size() + b.size());
    row.addAll(a);
    for (Object value : b) {
      row.add(value == NULL ? null : value);
    }
    return row;
  }

  private static List<Object> nulls(int width) {
    return new ArrayList<>(Collections.nCopies(width, null));
  }
}
