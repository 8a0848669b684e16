package dev.quiver.nexmark;

/** The three kinds of Nexmark events, in the order of their ids within an epoch. */
public enum EventKind {
  PERSON("person"),
  AUCTION("auction"),
  BID("bid");

  private final String tableName;

  EventKind(String tableName) {
    this.tableName = tableName;
  }

  /** The table (and Flink view) name Nexmark's queries use for this kind. */
  public String tableName() {
    return tableName;
  }
}
