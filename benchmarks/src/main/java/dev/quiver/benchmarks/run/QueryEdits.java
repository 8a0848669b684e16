package dev.quiver.benchmarks.run;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The textual changes one engine (Flink SQL) needs in a workload's query texts, each with its
 * reason: the summary and the README list them. An edit whose {@code from} text a query no longer
 * contains fails loudly instead of silently running another text.
 */
public final class QueryEdits {
  /** No changes. */
  public static final QueryEdits NONE = new QueryEdits(List.of());

  /** One textual change to one query: every occurrence of {@code from} becomes {@code to}. */
  public record Edit(int query, String from, String to, String why) {
    public Edit {
      requireNonNull(from, "from is null");
      requireNonNull(to, "to is null");
      requireNonNull(why, "why is null");
    }
  }

  private final List<Edit> edits;

  public QueryEdits(List<Edit> edits) {
    this.edits = List.copyOf(edits);
  }

  /** Every edit, in query order as given. */
  public List<Edit> all() {
    return edits;
  }

  /** The edits of the queries in {@code queries}. */
  public List<Edit> of(List<Integer> queries) {
    return edits.stream().filter(e -> queries.contains(e.query())).toList();
  }

  /** {@code text}, the text of query {@code query}, with its edits applied. */
  public String apply(int query, String text) {
    for (Edit edit : edits) {
      if (edit.query() == query) {
        if (!text.contains(edit.from())) {
          throw new IllegalStateException(
              "q" + query + " no longer contains \"" + edit.from() + "\"");
        }
        text = text.replace(edit.from(), edit.to());
      }
    }
    return text;
  }
}
