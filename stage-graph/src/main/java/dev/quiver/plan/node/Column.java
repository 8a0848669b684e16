package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import java.io.Serializable;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * One output column of a plan node: its name (for people and for the Arrow schema; names need not
 * be unique), its SQL type and whether it can be NULL.
 */
public record Column(String name, SqlType type, boolean nullable) implements Serializable {
  public Column {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
  }

  /** A nullable column. */
  public static Column of(String name, SqlType type) {
    return new Column(name, type, true);
  }

  /** A column that is never NULL. */
  public static Column notNull(String name, SqlType type) {
    return new Column(name, type, false);
  }

  /** The Arrow field of this column. */
  public Field toArrow() {
    return new Field(name, new FieldType(nullable, type.arrow(), null), null);
  }

  /** The column stored as {@code field}; fails for Arrow types Quiver does not compute with. */
  public static Column fromArrow(Field field) {
    requireNonNull(field, "field is null");
    return new Column(field.getName(), SqlType.of(field.getType()), field.isNullable());
  }

  /** The same column, nullable. */
  public Column asNullable() {
    return nullable ? this : new Column(name, type, true);
  }

  /** For example {@code price DECIMAL(15,2)} or {@code id BIGINT NOT NULL}. */
  @Override
  public String toString() {
    return name + " " + type + (nullable ? "" : " NOT NULL");
  }
}
