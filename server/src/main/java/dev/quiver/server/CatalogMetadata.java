package dev.quiver.server;

import dev.quiver.sql.CatalogTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The catalog as Flight SQL's metadata results, what JDBC's {@code DatabaseMetaData} and tools like
 * DBeaver list.
 *
 * <p>Quiver's tables live in one schema, {@value #SCHEMA} (the name SQL can qualify them with,
 * {@code quiver.lineitem}), under no catalog: {@code GetCatalogs} is empty, {@code GetDbSchemas}
 * has one row, every table's {@code catalog_name} is null. Filters follow JDBC: a schema or table
 * pattern is SQL {@code LIKE} ({@code %}, {@code _}, backslash escapes), matched ignoring case as
 * Quiver resolves names; a catalog filter matches only the empty name (no catalog).
 */
final class CatalogMetadata {
  static final String SCHEMA = "quiver";
  static final String TABLE_TYPE = "TABLE";

  private CatalogMetadata() {}

  static VectorSchemaRoot catalogs(BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(Schemas.GET_CATALOGS_SCHEMA, allocator);
    root.allocateNew();
    root.setRowCount(0);
    return root;
  }

  static VectorSchemaRoot schemas(BufferAllocator allocator, String catalog, String schemaPattern) {
    VectorSchemaRoot root = VectorSchemaRoot.create(Schemas.GET_SCHEMAS_SCHEMA, allocator);
    root.allocateNew();
    int rows = 0;
    if (noCatalog(catalog) && likes(schemaPattern, SCHEMA)) {
      ((VarCharVector) root.getVector("db_schema_name")).setSafe(0, utf8(SCHEMA));
      rows = 1;
    }
    root.setRowCount(rows);
    return root;
  }

  static VectorSchemaRoot tableTypes(BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(Schemas.GET_TABLE_TYPES_SCHEMA, allocator);
    root.allocateNew();
    ((VarCharVector) root.getVector("table_type")).setSafe(0, utf8(TABLE_TYPE));
    root.setRowCount(1);
    return root;
  }

  static VectorSchemaRoot tables(
      BufferAllocator allocator,
      Collection<CatalogTable> all,
      String catalog,
      String schemaPattern,
      String tablePattern,
      List<String> types,
      boolean includeSchema) {
    List<CatalogTable> tables = new ArrayList<>();
    if (noCatalog(catalog)
        && likes(schemaPattern, SCHEMA)
        && (types.isEmpty() || types.stream().anyMatch(TABLE_TYPE::equalsIgnoreCase))) {
      for (CatalogTable table : all) {
        if (likes(tablePattern, table.name())) {
          tables.add(table);
        }
      }
    }
    tables.sort(Comparator.comparing(CatalogTable::name));
    VectorSchemaRoot root =
        VectorSchemaRoot.create(
            includeSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA,
            allocator);
    root.allocateNew();
    VarCharVector schemaNames = (VarCharVector) root.getVector("db_schema_name");
    VarCharVector names = (VarCharVector) root.getVector("table_name");
    VarCharVector typeNames = (VarCharVector) root.getVector("table_type");
    for (int i = 0; i < tables.size(); i++) {
      schemaNames.setSafe(i, utf8(SCHEMA));
      names.setSafe(i, utf8(tables.get(i).name()));
      typeNames.setSafe(i, utf8(TABLE_TYPE));
      if (includeSchema) {
        ((VarBinaryVector) root.getVector("table_schema"))
            .setSafe(i, serialize(tables.get(i).schema().toArrow()));
      }
    }
    root.setRowCount(tables.size());
    return root;
  }

  /** {@code schema} as an Arrow IPC schema message, as Flight SQL carries schemas. */
  static byte[] serialize(Schema schema) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), schema);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize the schema " + schema, e);
    }
    return bytes.toByteArray();
  }

  /** No catalog filter, or the filter for "no catalog" (the empty name). */
  private static boolean noCatalog(String catalog) {
    return catalog == null || catalog.isEmpty();
  }

  /** Whether {@code name} matches the SQL LIKE {@code pattern} (null: no filter). */
  static boolean likes(String pattern, String name) {
    if (pattern == null) {
      return true;
    }
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL)
        .matcher(name.toLowerCase(Locale.ROOT))
        .matches();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
