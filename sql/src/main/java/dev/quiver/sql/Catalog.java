package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The tables a query may name. Names are kept as registered; lookups are case-insensitive because
 * the parser keeps unquoted identifiers unchanged and validates case-insensitively. The same tables
 * are exposed to Calcite as a {@link Schema} so that validation and statistics see one truth.
 */
public final class Catalog {
  private final Map<String, CatalogTable> tables = new LinkedHashMap<>();

  /** Registers {@code table}, replacing any table of the same name (ignoring case). */
  public Catalog add(CatalogTable table) {
    requireNonNull(table, "table is null");
    tables.put(table.name().toLowerCase(Locale.ROOT), table);
    return this;
  }

  /** Removes the table {@code name} (ignoring case); returns it, or empty if there was none. */
  public Optional<CatalogTable> remove(String name) {
    requireNonNull(name, "name is null");
    return Optional.ofNullable(tables.remove(name.toLowerCase(Locale.ROOT)));
  }

  public Optional<CatalogTable> table(String name) {
    return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
  }

  public Collection<CatalogTable> tables() {
    return tables.values();
  }

  /** This catalog as a Calcite schema (a snapshot of the current tables). */
  public Schema toCalciteSchema() {
    Map<String, Table> map = new LinkedHashMap<>();
    for (CatalogTable table : tables.values()) {
      map.put(table.name(), new QuiverTable(table));
    }
    return new AbstractSchema() {
      @Override
      protected Map<String, Table> getTableMap() {
        return map;
      }
    };
  }
}
