package dev.quiver.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * TPC-H-shaped {@code lineitem} (and, on request, {@code orders}) tables held in memory as
 * 8,192-row batches, as a scan would deliver them: only the requested lineitem columns are kept.
 *
 * <p>The rows are those of {@link LineitemBatch.Generator} from order index 0 with a fixed seed, so
 * every benchmark, every fork and both engines see the same values whatever columns they keep; 6,
 * 001,215 rows (SF1's lineitem count) make about 1.5 million orders. Each {@code orders} row is
 * derived from its lines: {@code o_orderdate} is the lines' order date and {@code o_totalprice} is
 * {@code sum(l_extendedprice * (1 + l_tax) * (1 - l_discount))} rounded to cents.
 */
final class TpchData implements AutoCloseable {
  static final int BATCH_ROWS = 8_192;
  static final int SF1_LINEITEM_ROWS = 6_001_215;
  private static final long SEED = 42;
  private static final long ORDERS_SEED = 43;
  private static final int CUSTOMERS = 150_000;

  static final Schema ORDERS_SCHEMA =
      new Schema(
          List.of(
              LineitemBatch.field("o_orderkey", new ArrowType.Int(64, true)),
              LineitemBatch.field("o_custkey", new ArrowType.Int(64, true)),
              LineitemBatch.field("o_orderdate", new ArrowType.Date(DateUnit.DAY)),
              LineitemBatch.field("o_totalprice", LineitemBatch.decimal())));

  final Schema lineitemSchema;
  final List<VectorSchemaRoot> lineitem;
  final long lineitemRows;
  final List<VectorSchemaRoot> orders; // empty unless requested
  final long ordersRows;

  private TpchData(
      Schema lineitemSchema,
      List<VectorSchemaRoot> lineitem,
      long lineitemRows,
      List<VectorSchemaRoot> orders,
      long ordersRows) {
    this.lineitemSchema = lineitemSchema;
    this.lineitem = lineitem;
    this.lineitemRows = lineitemRows;
    this.orders = orders;
    this.ordersRows = ordersRows;
  }

  /**
   * Generates {@code rows} lineitem rows keeping {@code columns} (names of {@link
   * LineitemBatch#SCHEMA}, in the order given), and the orders of those lines if {@code
   * withOrders}. Everything is allocated in {@code allocator} and owned by the result.
   */
  static TpchData generate(
      BufferAllocator allocator, int rows, List<String> columns, boolean withOrders) {
    int[] kept = columns.stream().mapToInt(TpchData::lineitemColumn).toArray();
    List<Field> keptFields = new ArrayList<>();
    for (int column : kept) {
      keptFields.add(LineitemBatch.SCHEMA.getFields().get(column));
    }
    Schema schema = new Schema(keptFields);
    Orders orders = withOrders ? new Orders() : null;
    LineitemBatch.Generator generator =
        new LineitemBatch.Generator(new Random(SEED), 0, orders == null ? null : orders::line);
    List<VectorSchemaRoot> lineitem = new ArrayList<>();
    List<VectorSchemaRoot> ordersBatches = new ArrayList<>();
    try {
      for (int from = 0; from < rows; from += BATCH_ROWS) {
        int count = Math.min(BATCH_ROWS, rows - from);
        try (VectorSchemaRoot full = VectorSchemaRoot.create(LineitemBatch.SCHEMA, allocator)) {
          full.getFieldVectors().forEach(vector -> vector.setInitialCapacity(count));
          full.allocateNew();
          for (int row = 0; row < count; row++) {
            generator.write(full, row);
          }
          full.setRowCount(count);
          lineitem.add(project(full, schema, kept, allocator));
        }
      }
      if (orders != null) {
        orders.batches(allocator, ordersBatches);
      }
      return new TpchData(schema, lineitem, rows, ordersBatches, orders == null ? 0 : orders.count);
    } catch (RuntimeException | Error e) {
      lineitem.forEach(VectorSchemaRoot::close);
      ordersBatches.forEach(VectorSchemaRoot::close);
      throw e;
    }
  }

  /** The index of lineitem column {@code name} in {@link LineitemBatch#SCHEMA}. */
  static int lineitemColumn(String name) {
    List<Field> fields = LineitemBatch.SCHEMA.getFields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no lineitem column " + name);
  }

  /** The {@code kept} columns of {@code full} as a new root sharing their buffers. */
  private static VectorSchemaRoot project(
      VectorSchemaRoot full, Schema schema, int[] kept, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>(kept.length);
    for (int column : kept) {
      var pair = full.getVector(column).getTransferPair(allocator);
      pair.transfer();
      vectors.add((FieldVector) pair.getTo());
    }
    return new VectorSchemaRoot(schema.getFields(), vectors, full.getRowCount());
  }

  @Override
  public void close() {
    lineitem.forEach(VectorSchemaRoot::close);
    orders.forEach(VectorSchemaRoot::close);
  }

  /** Accumulates one orders row per order key from the lines, in key order. */
  private static final class Orders {
    private final Random random = new Random(ORDERS_SEED);
    private long[] keys = new long[1024];
    private long[] customers = new long[1024];
    private int[] dates = new int[1024];
    private long[] totalMicros = new long[1024]; // 10^-6 units: cents × (100 + tax) × (100 - disc)
    private int count;

    void line(long orderKey, int orderDate, long extendedCents, int discount, int tax) {
      if (count == 0 || keys[count - 1] != orderKey) {
        if (count == keys.length) {
          int capacity = count * 2;
          keys = Arrays.copyOf(keys, capacity);
          customers = Arrays.copyOf(customers, capacity);
          dates = Arrays.copyOf(dates, capacity);
          totalMicros = Arrays.copyOf(totalMicros, capacity);
        }
        keys[count] = orderKey;
        customers[count] = 1 + random.nextInt(CUSTOMERS);
        dates[count] = orderDate;
        totalMicros[count] = 0;
        count++;
      }
      totalMicros[count - 1] += extendedCents * (100 + tax) * (100 - discount);
    }

    void batches(BufferAllocator allocator, List<VectorSchemaRoot> out) {
      for (int from = 0; from < count; from += BATCH_ROWS) {
        int rows = Math.min(BATCH_ROWS, count - from);
        VectorSchemaRoot root = VectorSchemaRoot.create(ORDERS_SCHEMA, allocator);
        out.add(root);
        root.getFieldVectors().forEach(vector -> vector.setInitialCapacity(rows));
        root.allocateNew();
        BigIntVector key = (BigIntVector) root.getVector(0);
        BigIntVector customer = (BigIntVector) root.getVector(1);
        DateDayVector date = (DateDayVector) root.getVector(2);
        DecimalVector total = (DecimalVector) root.getVector(3);
        for (int row = 0; row < rows; row++) {
          int order = from + row;
          key.set(row, keys[order]);
          customer.set(row, customers[order]);
          date.set(row, dates[order]);
          total.set(row, (totalMicros[order] + 5_000) / 10_000); // to cents, half up
        }
        root.setRowCount(rows);
      }
    }
  }
}
