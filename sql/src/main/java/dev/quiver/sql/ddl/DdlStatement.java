package dev.quiver.sql.ddl;

/** A DDL statement Quiver runs: {@link CreateTable} or {@link DropTable}. */
public sealed interface DdlStatement permits CreateTable, DropTable {
  /** The table the statement creates or drops, as written (unquoted). */
  String name();
}
