package dev.quiver.benchmarks;

import dev.quiver.operators.memory.Allocators;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a query benchmark sets up once per trial: the generated tables in Arrow memory, the same
 * tables loaded into an in-memory single-threaded DuckDB ({@code lineitem}, and {@code orders} if
 * asked for), and the allocator Quiver's operators run in. Closing it fails if an operator leaked.
 */
final class QueryData implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueryData.class);

  /** The allocator operators allocate from, as a task's would be: separate from the data's. */
  final BufferAllocator allocator;

  final TpchData tables;
  final DuckDb duckdb;
  private final BufferAllocator dataAllocator;

  private QueryData(
      BufferAllocator dataAllocator, BufferAllocator allocator, TpchData tables, DuckDb duckdb) {
    this.dataAllocator = dataAllocator;
    this.allocator = allocator;
    this.tables = tables;
    this.duckdb = duckdb;
  }

  @SuppressWarnings("try") // resources named only to be closed, in order, also on failure
  static QueryData load(String name, int rows, List<String> columns, boolean withOrders) {
    BufferAllocator dataAllocator = Allocators.newChild("benchmark:" + name + ":data");
    BufferAllocator allocator = null;
    TpchData tables = null;
    DuckDb duckdb = null;
    try {
      allocator = Allocators.newChild("benchmark:" + name + ":task");
      long start = System.nanoTime();
      tables = TpchData.generate(dataAllocator, rows, columns, withOrders);
      long generated = System.nanoTime();
      duckdb = DuckDb.open();
      duckdb.load("lineitem", tables.lineitemSchema, tables.lineitem);
      if (withOrders) {
        duckdb.load("orders", TpchData.ORDERS_SCHEMA, tables.orders);
      }
      LOG.info(
          "{}: {} lineitem rows ({} columns, {} MB of Arrow buffers), {} orders rows;"
              + " generated in {} ms, loaded into DuckDB in {} ms",
          name,
          tables.lineitemRows,
          columns.size(),
          dataAllocator.getAllocatedMemory() >> 20,
          tables.ordersRows,
          (generated - start) / 1_000_000,
          (System.nanoTime() - generated) / 1_000_000);
      return new QueryData(dataAllocator, allocator, tables, duckdb);
    } catch (RuntimeException | Error e) {
      try (BufferAllocator a = dataAllocator;
          BufferAllocator b = allocator;
          TpchData t = tables;
          DuckDb d = duckdb) {
        // closes what was made
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  @SuppressWarnings("try") // resources named only to be closed, in order, also on failure
  @Override
  public void close() {
    try (BufferAllocator a = dataAllocator;
        TpchData t = tables;
        DuckDb d = duckdb;
        BufferAllocator b = allocator) {
      // closes in reverse: the task allocator (fails on a leak), DuckDB, the data, its allocator
    }
  }
}
