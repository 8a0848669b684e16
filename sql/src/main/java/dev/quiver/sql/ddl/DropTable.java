package dev.quiver.sql.ddl;

import static java.util.Objects.requireNonNull;

/**
 * {@code DROP [TEMPORARY] TABLE [IF EXISTS] name}.
 *
 * @param name the table
 * @param ifExists whether a missing table is fine ({@code IF EXISTS}) rather than an error
 */
public record DropTable(String name, boolean ifExists) implements DdlStatement {
  public DropTable {
    requireNonNull(name, "name is null");
  }
}
