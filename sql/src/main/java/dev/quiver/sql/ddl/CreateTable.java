package dev.quiver.sql.ddl;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.sql.TableColumns;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed {@code CREATE TABLE}, in the shape {@code QuiverSession.registerTable(name, schema,
 * eventTime, primaryKey, with)} takes. {@code TEMPORARY} and comments are accepted for Flink
 * scripts' sake and change nothing (Quiver's tables live as long as their session). {@code PRIMARY
 * KEY ... NOT ENFORCED} is never checked: an {@code 'upsert-kafka'} table's key is its message key,
 * other connectors ignore it.
 *
 * @param name the table, as written (unquoted)
 * @param columns the declared columns: physical, computed and metadata ones
 * @param eventTime the {@code WATERMARK FOR} declaration, if any
 * @param primaryKey the {@code PRIMARY KEY} columns as declared, empty without one
 * @param options the {@code WITH} options in their order (keys as written)
 * @param ifNotExists whether an existing table of that name is kept ({@code IF NOT EXISTS}) rather
 *     than an error
 */
public record CreateTable(
    String name,
    TableColumns columns,
    Optional<EventTime> eventTime,
    List<String> primaryKey,
    Map<String, String> options,
    boolean ifNotExists)
    implements DdlStatement {
  public CreateTable {
    requireNonNull(name, "name is null");
    requireNonNull(columns, "columns is null");
    requireNonNull(eventTime, "eventTime is null");
    primaryKey = List.copyOf(requireNonNull(primaryKey, "primaryKey is null"));
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }

  /** Every declared column in declared order, computed ones typed by their expressions. */
  public RowSchema schema() {
    return columns.schema();
  }
}
