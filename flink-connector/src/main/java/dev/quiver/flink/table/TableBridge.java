package dev.quiver.flink.table;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;

/**
 * Flink Tables in and out of Quiver: a {@link Table} becomes a stream of Arrow batches that a
 * Quiver plan can read, and a stream of batches becomes a {@link Table} that Flink SQL can query —
 * in one Flink program. Types map exactly both ways (see {@link FlinkTypes}).
 *
 * <pre>
 *  Table ─toDataStream(RowData)─► RowsToBatchesOperator ─► DataStream&lt;BatchRecord&gt; ─► Quiver
 *  Quiver ─► DataStream&lt;BatchRecord&gt; ─► BatchesToRowsOperator ─► DataStream&lt;Row&gt;
 *        ─fromDataStream(declared schema)─► Table
 * </pre>
 *
 * Tables must be insert-only (bounded tables in BATCH mode are).
 */
public final class TableBridge {
  /** Rows per batch unless a caller says otherwise. */
  public static final int DEFAULT_BATCH_ROWS = 8192;

  private TableBridge() {}

  /** {@link #toBatches(StreamTableEnvironment, Table, int)} with {@link #DEFAULT_BATCH_ROWS}. */
  public static DataStream<BatchRecord> toBatches(StreamTableEnvironment env, Table table) {
    return toBatches(env, table, DEFAULT_BATCH_ROWS);
  }

  /**
   * The rows of {@code table} as Arrow batches of its {@linkplain FlinkTypes#toArrow(RowType)
   * schema}, up to {@code batchRows} rows each, with the parallelism of Flink's conversion.
   *
   * @throws dev.quiver.error.QuiverException if a column's type has no Arrow counterpart
   */
  public static DataStream<BatchRecord> toBatches(
      StreamTableEnvironment env, Table table, int batchRows) {
    requireNonNull(env, "env is null");
    requireNonNull(table, "table is null");
    DataType physical = table.getResolvedSchema().toPhysicalRowDataType();
    RowType type = (RowType) physical.getLogicalType();
    FlinkTypes.toArrow(type); // an unsupported column fails before Flink plans the conversion
    // Internal rows: no conversion to Java objects on the way into Arrow vectors.
    return toBatches(env.toDataStream(table, physical.bridgedTo(RowData.class)), type, batchRows);
  }

  /**
   * A DataStream program's rows as Arrow batches of {@code type}'s {@linkplain
   * FlinkTypes#toArrow(RowType) schema}, up to {@code batchRows} rows each, one batch task per row
   * task (chained): for a stream of Flink's internal rows ({@code GenericRowData}, or what Flink's
   * sources and formats produce), typed e.g. with {@code InternalTypeInfo.of(type)}. Field {@code
   * i} of each row is read as the type of field {@code i} of {@code type}; insert-only rows only.
   *
   * @throws dev.quiver.error.QuiverException if a field's type has no Arrow counterpart
   */
  public static DataStream<BatchRecord> toBatches(
      DataStream<RowData> rows, RowType type, int batchRows) {
    requireNonNull(rows, "rows is null");
    requireNonNull(type, "type is null");
    Schema schema = FlinkTypes.toArrow(type);
    SingleOutputStreamOperator<BatchRecord> batches =
        rows.transform(
            "table to Arrow batches",
            BatchTypeInfo.of(schema, "flink table"),
            new RowsToBatchesOperator(type, batchRows));
    // Same task count as the conversion, so the packing is chained to it.
    return rows.getParallelism() > 0 ? batches.setParallelism(rows.getParallelism()) : batches;
  }

  /**
   * The rows of {@code batches} as Flink {@link Row}s, typed with a {@link RowTypeInfo} of the
   * batch schema's column names (DECIMAL travels as BigDecimal, DATE as LocalDate, TIMESTAMP as
   * LocalDateTime); one row task per batch task, chained.
   */
  public static DataStream<Row> toRows(DataStream<BatchRecord> batches) {
    Schema schema = schemaOf(batches);
    List<Field> fields = schema.getFields();
    TypeInformation<?>[] types = new TypeInformation<?>[fields.size()];
    String[] names = new String[fields.size()];
    for (int c = 0; c < types.length; c++) {
      types[c] = ColumnReaders.typeInfo(fields.get(c));
      names[c] = fields.get(c).getName();
    }
    return batches
        .transform(
            "Arrow batches to rows",
            new RowTypeInfo(types, names),
            new BatchesToRowsOperator(schema))
        .setParallelism(batches.getParallelism());
  }

  /**
   * {@code batches} as a Table whose columns have exactly the Flink types of the batch schema
   * (DECIMAL(p, s) with its precision and scale, TIMESTAMP(6), NOT NULL where the Arrow field is).
   */
  public static Table toTable(StreamTableEnvironment env, DataStream<BatchRecord> batches) {
    requireNonNull(env, "env is null");
    return env.fromDataStream(toRows(batches), tableSchema(schemaOf(batches)));
  }

  /** The Table API schema of batches of {@code schema}. */
  public static org.apache.flink.table.api.Schema tableSchema(Schema schema) {
    org.apache.flink.table.api.Schema.Builder builder =
        org.apache.flink.table.api.Schema.newBuilder();
    for (Field field : schema.getFields()) {
      builder.column(
          field.getName(), TypeConversions.fromLogicalToDataType(FlinkTypes.toFlink(field)));
    }
    return builder.build();
  }

  private static Schema schemaOf(DataStream<BatchRecord> batches) {
    requireNonNull(batches, "batches is null");
    if (!(batches.getType() instanceof BatchTypeInfo type)) {
      throw new IllegalArgumentException("not a stream of Arrow batches: " + batches.getType());
    }
    return type.schema();
  }
}
