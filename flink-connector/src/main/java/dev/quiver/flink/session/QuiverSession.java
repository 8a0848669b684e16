package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.catalog.CatalogScanSources;
import dev.quiver.flink.catalog.DirectoryTables;
import dev.quiver.flink.catalog.FileCatalogTables;
import dev.quiver.flink.catalog.FileTableSpec;
import dev.quiver.flink.catalog.StreamTables;
import dev.quiver.flink.catalog.TableSinks;
import dev.quiver.flink.compiler.JobRunner;
import dev.quiver.flink.compiler.QueryResult;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.runtime.RowCountSink;
import dev.quiver.flink.runtime.WriteJob;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.plan.changelog.Changelogs;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.sql.Catalog;
import dev.quiver.sql.CatalogTable;
import dev.quiver.sql.InsertPlan;
import dev.quiver.sql.PlannerOptions;
import dev.quiver.sql.SqlPlanner;
import dev.quiver.sql.ddl.CreateTable;
import dev.quiver.sql.ddl.DdlParser;
import dev.quiver.sql.ddl.DdlStatement;
import dev.quiver.sql.ddl.DropTable;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import dev.quiver.stage.UnboundedInputs;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs SQL over files on Flink: register tables stored in Parquet, CSV or Arrow IPC files, then
 * query them; each query is planned into a stage graph and runs as one Flink BATCH job whose result
 * batches stream back as Arrow.
 *
 * <pre>{@code
 * try (QuiverSession session = QuiverSession.local()) {
 *   session.registerDirectory(Path.of("/data/tpch/sf1"));
 *   List<List<Object>> rows =
 *       session.sql("SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag")
 *           .rows();
 * }
 * }</pre>
 *
 * <pre>
 *   sql ─► SqlPlanner (catalog) ─► plan ─► StagePlanner ─► stage graph
 *       ─► StageGraphCompiler (FileScanSources) ─► Flink job on the session's cluster
 *       ─► SqlResult: Arrow batches in the session's allocator
 * </pre>
 *
 * <p>A local session starts one MiniCluster and reuses it for every query, so a query pays only for
 * its own job; closing the session stops it. The session owns one Arrow allocator for result
 * batches; closing the session ends every query still open and then closes the allocator, which
 * fails if the caller still holds result batches. Registration and queries may come from several
 * threads; a {@link SqlResult} belongs to one.
 */
public final class QuiverSession implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QuiverSession.class);
  private static final AtomicInteger SESSIONS = new AtomicInteger();
  private static final int JOB_NAME_CHARS = 100;

  /** The checkpoint interval of a streaming query, unless the Flink configuration sets one. */
  public static final long STREAM_CHECKPOINT_MILLIS = 1000;

  private final SessionCluster cluster;
  private final int parallelism;
  private final PlannerOptions options;
  private final StagePlanner stagePlanner = StagePlanner.withDefaultRewrites();
  private final StageGraphCompiler compiler;
  private final Catalog catalog = new Catalog();
  private final BufferAllocator allocator;
  private final Set<SqlResult> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  QuiverSession(SessionCluster cluster, PlannerOptions options, StageGraphCompiler compiler) {
    this.cluster = requireNonNull(cluster, "cluster is null");
    this.options = options;
    this.parallelism = options.parallelism();
    this.compiler = compiler;
    this.allocator = Allocators.newChild("quiver-session-" + SESSIONS.incrementAndGet());
    LOG.info("Quiver session on {}, parallelism {}", cluster.description(), parallelism);
  }

  /** A session on its own local MiniCluster with the default settings. */
  public static QuiverSession local() {
    return builder().build();
  }

  /** A builder of a session: parallelism, local or remote cluster, Flink configuration. */
  public static SessionBuilder builder() {
    return new SessionBuilder();
  }

  /** The number of tasks of each distributed stage. */
  public int parallelism() {
    return parallelism;
  }

  /**
   * The tables queries can name; changes are seen by the next query. With several threads, change
   * it only through the session's {@code register} methods, which synchronize with planning.
   */
  public Catalog catalog() {
    return catalog;
  }

  /** Registers the file, directory or glob {@code location} as {@code name} (format detected). */
  public CatalogTable registerTable(String name, String location) {
    return registerTable(name, FileTableSpec.of(location));
  }

  /**
   * Registers {@code location} as {@code name}.
   *
   * @param format the format, or empty to detect it from the file extensions
   * @param csv how to parse CSV files
   * @param schema a declared schema overriding inference (for CSV: types, and names without header)
   */
  public CatalogTable registerTable(
      String name,
      String location,
      Optional<FileFormat> format,
      CsvOptions csv,
      Optional<Schema> schema) {
    return registerTable(name, new FileTableSpec(location, format, csv, schema));
  }

  /**
   * Registers the files {@code spec} describes as {@code name}, replacing a table of that name. The
   * files are resolved now: the table is the files present now (register again to refresh).
   *
   * @throws QuiverException if the location does not exist, holds no data files, or its files
   *     disagree with each other or with the declared schema
   */
  public CatalogTable registerTable(String name, FileTableSpec spec) {
    checkOpen();
    return register(FileCatalogTables.open(name, spec));
  }

  /** Registers every table of {@code directory} (see {@link DirectoryTables}). */
  public List<CatalogTable> registerDirectory(Path directory) {
    return registerDirectory(directory, CsvOptions.DEFAULT);
  }

  /** Registers every table of {@code directory}, parsing CSV tables with {@code csv}. */
  public List<CatalogTable> registerDirectory(Path directory, CsvOptions csv) {
    checkOpen();
    List<CatalogTable> tables = DirectoryTables.open(directory, csv);
    tables.forEach(this::register);
    return tables;
  }

  /**
   * Registers a table read through a connector, declared as Flink SQL's {@code CREATE TABLE}
   * declares it: {@code schema}, {@code eventTime} ({@code WATERMARK FOR ts AS ts - INTERVAL '5'
   * SECOND}) and the {@code WITH} options, e.g. a Kafka topic ({@code 'connector' = 'kafka'}) or a
   * watched directory ({@code 'connector' = 'filesystem'} with {@code 'source.monitor-interval'});
   * see {@link StreamTables} for the options. A query that reads an unbounded table runs as a
   * STREAMING job.
   *
   * @throws QuiverException naming the table and the option that is missing or wrong
   */
  public CatalogTable registerTable(
      String name, RowSchema schema, Optional<EventTime> eventTime, Map<String, String> with) {
    return registerTable(name, schema, eventTime, List.of(), with);
  }

  /**
   * Registers a table read or written through a connector, as {@link #registerTable(String,
   * RowSchema, Optional, Map)}, with the columns of its {@code PRIMARY KEY ... NOT ENFORCED}
   * (empty: none): an {@code 'upsert-kafka'} table requires one, its message key; other connectors
   * ignore it.
   *
   * @throws QuiverException naming the table and the option that is missing or wrong
   */
  public CatalogTable registerTable(
      String name,
      RowSchema schema,
      Optional<EventTime> eventTime,
      List<String> primaryKey,
      Map<String, String> with) {
    checkOpen();
    return register(StreamTables.open(name, schema, eventTime, primaryKey, with, parallelism));
  }

  /** Registers {@code table} as it is, replacing a table of the same name (ignoring case). */
  public synchronized CatalogTable register(CatalogTable table) {
    checkOpen();
    catalog.add(requireNonNull(table, "table is null"));
    LOG.debug(
        "Registered table {} {} ({} rows, {} units)",
        table.name(),
        table.schema(),
        table.rowCount(),
        table.units().size());
    return table;
  }

  /**
   * Runs one statement as Flink SQL's {@code TableEnvironment.executeSql} does: {@code CREATE
   * TABLE} registers a table as {@link #registerTable(String, RowSchema, Optional, Map)} does, its
   * computed and metadata columns included (the syntax: {@link DdlParser}; the columns: {@link
   * StreamTables#open(String, dev.quiver.sql.TableColumns, Optional, List, Map, int)}), {@code DROP
   * TABLE} removes one, and any other statement is a query started by {@link #sql}.
   *
   * <pre>{@code
   * session.execute("""
   *     CREATE TABLE bids (id BIGINT, price DOUBLE, ts TIMESTAMP(3),
   *       WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
   *     WITH ('connector' = 'kafka', 'topic' = 'bids', 'format' = 'json',
   *       'properties.bootstrap.servers' = 'localhost:9092')""");
   * try (SqlResult result = session.execute("SELECT * FROM bids WHERE price > 10").orElseThrow()) {
   *   ...
   * }
   * }</pre>
   *
   * <p>{@code CREATE TABLE} of a name the session has fails, unless {@code IF NOT EXISTS} keeps the
   * table there is; {@code DROP TABLE} of a name it does not have fails, unless {@code IF EXISTS}.
   * Queries already running over a dropped table keep reading it.
   *
   * <p>{@code INSERT INTO t SELECT ...} (or {@code VALUES}) starts a job that writes the rows into
   * the table {@code t}, a Kafka topic or a directory of files declared by {@code CREATE TABLE},
   * and returns its result at once: a streaming job (the query reads an unbounded table) runs until
   * the result is cancelled or closed, a bounded one ends when every row is written, and its result
   * then holds one row, the rows written ({@link SqlResult#insertInto()}). The query's columns go
   * into the table's by position, each of the column's type or one that widens into it (INTEGER
   * into BIGINT), else one line names the column. Each row is written exactly once: the sinks
   * commit what they wrote with the job's checkpoints, so readers of the topic ({@code
   * isolation.level = read_committed}) or of the directory see a row once its checkpoint has
   * completed, and never one that a restart takes back ({@link TableSinks}).
   *
   * <pre>{@code
   * session.execute("CREATE TABLE totals (...) WITH ('connector' = 'kafka', 'topic' = 'totals', ...)");
   * SqlResult job = session.execute("INSERT INTO totals SELECT ... FROM bids GROUP BY ...").orElseThrow();
   * ... job.cancel() or job.close() stops it; job.rows() waits for a bounded one: [[rows written]]
   * }</pre>
   *
   * @return the query's or INSERT's result, or empty for {@code CREATE TABLE} and {@code DROP
   *     TABLE}
   * @throws QuiverException if the statement does not parse, a table to create exists or one to
   *     drop does not, the connector options are wrong, the query cannot run (see {@link #sql}), or
   *     an INSERT's table cannot be written or does not fit the query
   */
  public Optional<SqlResult> execute(String statement) {
    requireNonNull(statement, "statement is null");
    Optional<DdlStatement> ddl = DdlParser.parse(statement);
    if (ddl.isEmpty()) {
      return Optional.of(SqlPlanner.isInsert(statement) ? insert(statement, null) : sql(statement));
    }
    if (ddl.get() instanceof CreateTable create) {
      createTable(create);
    } else {
      dropTable((DropTable) ddl.get());
    }
    return Optional.empty();
  }

  /**
   * Plans and starts {@code INSERT INTO ...} (see {@link #execute}), from {@code savepoint} unless
   * it is null.
   */
  private SqlResult insert(String sql, String savepoint) {
    checkOpen();
    long start = System.nanoTime();
    InsertPlan insert = planInsert(sql);
    TableSinks sink = TableSinks.of(insert.target());
    PlanNode plan = UnboundedInputs.prepare(insert.plan());
    boolean upsert = sink.upsertKey().isPresent();
    if (UnboundedInputs.isChangelog(plan)) {
      checkUpsertKey(insert, plan, sink);
    } else if (upsert) {
      plan = Changelogs.inserts(plan); // every row +I
    }
    StageGraph graph = stagePlanner.plan(plan);
    boolean streaming = UnboundedInputs.readsUnbounded(plan);
    checkRestorable(savepoint, streaming, sql);
    WriteJob job;
    try {
      StreamExecutionEnvironment env = cluster.environment();
      if (streaming) {
        streaming(env);
      }
      restoreFrom(env, savepoint);
      // A new scan factory per query: it reopens each table, so changed files are noticed.
      sink.write(compiler.withScanSources(new CatalogScanSources()).compile(env, graph), upsert);
      job = WriteJob.submit(env, jobName(sql), allocator);
    } catch (RuntimeException e) {
      throw e; // QuiverException for files that changed since registration, or a bug
    } catch (Exception e) {
      throw new IllegalStateException("cannot submit the INSERT to " + cluster.description(), e);
    }
    SqlResult result =
        new SqlResult(
            insert.target().name(), job, graph, open::remove, cluster::failedTask, streaming);
    open.add(result);
    if (closed) { // closed while submitting: close() may have missed this result
      result.close();
      checkOpen();
    }
    LOG.debug(
        "INSERT INTO {} submitted as job {} in {} ms:\n{}",
        insert.target().name(),
        result.jobId(),
        (System.nanoTime() - start) / 1_000_000,
        graph.explain());
    return result;
  }

  /**
   * Refuses an INSERT of the updating result {@code plan} unless its table is an upsert table keyed
   * by the columns that key the result's rows (the GROUP BY columns).
   */
  private static void checkUpsertKey(InsertPlan insert, PlanNode plan, TableSinks sink) {
    String table = insert.target().name();
    if (sink.upsertKey().isEmpty()) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          "INSERT INTO "
              + table
              + ": the query's result is updating (a GROUP BY over a stream without an event-time"
              + " window changes rows it has emitted), and this table only takes appended rows:"
              + " write it to an 'upsert-kafka' table with the GROUP BY columns as its PRIMARY KEY,"
              + " group by the window_end of TUMBLE, HOP or CUMULATE, or run the query without"
              + " INSERT to see its changelog");
    }
    List<String> columns = insert.target().schema().columns().stream().map(c -> c.name()).toList();
    List<String> primaryKey = sink.upsertKey().get().stream().map(columns::get).toList();
    Optional<Set<Integer>> key = UnboundedInputs.upsertKey(plan);
    if (key.isEmpty() || !key.get().equals(Set.copyOf(sink.upsertKey().get()))) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          "INSERT INTO "
              + table
              + ": its PRIMARY KEY "
              + primaryKey
              + " must be the columns the query's GROUP BY columns go into, "
              + key.map(k -> k.stream().sorted().map(columns::get).toList().toString())
                  .orElse(
                      "which the query does not write as they are (a global aggregate, or a"
                          + " GROUP BY column computed over or left out)")
              + ": each message's key must name one group");
    }
  }

  private synchronized InsertPlan planInsert(String sql) {
    checkOpen();
    return new SqlPlanner(catalog).planInsert(sql, options);
  }

  private synchronized void createTable(CreateTable create) {
    checkOpen();
    if (catalog.table(create.name()).isPresent()) {
      if (create.ifNotExists()) {
        LOG.debug("CREATE TABLE IF NOT EXISTS {}: kept the table there is", create.name());
        return;
      }
      throw new QuiverException(
          ErrorCode.INVALID_QUERY,
          "the table "
              + create.name()
              + " already exists: CREATE TABLE IF NOT EXISTS keeps it, DROP TABLE "
              + create.name()
              + " first replaces it");
    }
    // As registerTable(name, schema, eventTime, primaryKey, with), with computed and metadata
    // columns.
    register(
        StreamTables.open(
            create.name(),
            create.columns(),
            create.eventTime(),
            create.primaryKey(),
            create.options(),
            parallelism));
  }

  private synchronized void dropTable(DropTable drop) {
    checkOpen();
    if (catalog.remove(drop.name()).isPresent()) {
      LOG.debug("Dropped table {}", drop.name());
    } else if (!drop.ifExists()) {
      throw new QuiverException(
          ErrorCode.INVALID_QUERY,
          "the table " + drop.name() + " does not exist (DROP TABLE IF EXISTS ignores that)");
    }
  }

  /**
   * Plans and starts the query {@code sql}; the result streams its batches while the job runs.
   * {@code CREATE TABLE} and {@code DROP TABLE} are refused here: {@link #execute} runs them.
   *
   * @throws QuiverException if the query does not parse, names an unknown table or column, uses a
   *     feature Quiver cannot run yet, or reads files that have changed since registration
   */
  public SqlResult sql(String sql) {
    return run(prepare(sql));
  }

  /**
   * Plans {@code sql} without running it: its output schema is known before any job starts (a
   * server answers a client's "what will this return" with it), and {@link #run} starts it later,
   * as often as asked, without planning it again.
   *
   * @throws QuiverException if the query does not parse, names an unknown table or column, or uses
   *     a feature Quiver cannot run yet
   */
  public PlannedQuery prepare(String sql) {
    return new PlannedQuery(sql, UnboundedInputs.prepare(plan(sql)));
  }

  /**
   * Starts {@code query}, planned by this session; the result streams its batches while the job
   * runs. Each call is a new Flink job.
   *
   * @throws QuiverException if the query reads files that have changed since registration
   */
  public SqlResult run(PlannedQuery query) {
    requireNonNull(query, "query is null");
    return start(query, null);
  }

  /**
   * Starts the streaming query {@code sql} from the savepoint {@code savepoint}, which {@link
   * SqlResult#stopWithSavepoint} returned when it stopped the same query: its sources go on from
   * the positions saved (Kafka offsets), its windows open at the stop go on filling, and its result
   * holds the rows the stopped one did not emit, each once. The query must be planned as it was
   * (same text, tables and parallelism). An {@code INSERT INTO ...} of a streaming query restarts
   * so too: its sink's pending transactions or files are committed or taken back as Flink's Kafka
   * and file sinks do on a restore, so the target gets each row once.
   *
   * <pre>{@code
   * String savepoint = result.stopWithSavepoint(Path.of("/savepoints"));
   * result.rows(); // what the job emitted before the savepoint
   * ... later, in this session or another:
   * try (SqlResult resumed = session.sqlFromSavepoint(query, savepoint)) { ... }
   * }</pre>
   *
   * @param savepoint the savepoint's path or URI; a path without a scheme is of this machine's file
   *     system (a remote cluster must reach it at the same path)
   * @throws QuiverException if the query does not read an unbounded table, the savepoint does not
   *     exist or is not one, or it was taken from another query or with another parallelism; and
   *     what {@link #sql} throws
   */
  public SqlResult sqlFromSavepoint(String sql, String savepoint) {
    requireNonNull(savepoint, "savepoint is null");
    if (SqlPlanner.isInsert(sql)) {
      return insert(sql, savepoint);
    }
    return start(prepare(sql), savepoint);
  }

  private SqlResult start(PlannedQuery query, String savepoint) {
    checkOpen();
    long start = System.nanoTime();
    StageGraph graph = stagePlanner.plan(query.plan());
    // A new scan factory per query: it reopens each table, so changed files are noticed.
    JobRunner runner =
        new JobRunner(stagePlanner, compiler.withScanSources(new CatalogScanSources()));
    QueryResult result;
    boolean streaming = UnboundedInputs.readsUnbounded(query.plan());
    checkRestorable(savepoint, streaming, query.sql());
    try {
      StreamExecutionEnvironment env = cluster.environment();
      if (streaming) {
        streaming(env);
      }
      restoreFrom(env, savepoint);
      result = runner.run(env, graph, allocator, jobName(query.sql()));
    } catch (RuntimeException e) {
      throw e; // QuiverException for files that changed since registration, or a bug
    } catch (Exception e) {
      throw new IllegalStateException("cannot submit the query to " + cluster.description(), e);
    }
    SqlResult sqlResult =
        new SqlResult(
            query.plan().arrowSchema(),
            result,
            open::remove,
            cluster::failedTask,
            streaming,
            query.changelog());
    open.add(sqlResult);
    if (closed) { // closed while submitting: close() may have missed this result
      sqlResult.close();
      checkOpen();
    }
    LOG.debug(
        "Query submitted as job {} in {} ms:\n{}",
        sqlResult.jobId(),
        (System.nanoTime() - start) / 1_000_000,
        graph.explain());
    return sqlResult;
  }

  /**
   * The task slots of the session's cluster: a local cluster's own, a remote cluster's total as its
   * REST endpoint reports it now (empty when it cannot be asked). A query needs as many slots as
   * its widest stage (its stages share slots), so {@code slots / parallelism} queries run at once.
   */
  public OptionalInt slots() {
    return cluster.slots();
  }

  /**
   * The Flink jobs of this session's local cluster that have not ended (running, cancelling,
   * restarting...); empty for a remote session, whose cluster runs other users' jobs too.
   */
  public OptionalInt unfinishedJobs() {
    return cluster instanceof LocalCluster local
        ? OptionalInt.of(local.unfinishedJobs())
        : OptionalInt.empty();
  }

  /**
   * The REST endpoint of the session's cluster, where Flink's web UI is too when {@code
   * flink-runtime-web} is on the class path: a local cluster's (started now if no query has started
   * it yet), a remote cluster's {@code http://HOST:PORT}. Its {@code /jobs/<id>} says which of a
   * query's job vertices have finished ({@link SqlResult#jobId()}).
   */
  public URI restAddress() {
    checkOpen();
    return cluster.restAddress();
  }

  /** The queries whose results are still open (started and not closed). */
  public int openQueries() {
    return open.size();
  }

  /** The stage graph {@code sql} would run, without running it. */
  public StageGraph stageGraph(String sql) {
    return stagePlanner.plan(UnboundedInputs.prepare(plan(sql)));
  }

  /** The EXPLAIN text of {@code sql}: its stages, each with its tasks, inputs and operators. */
  public String explain(String sql) {
    return stageGraph(sql).explain();
  }

  /** The stage graph of {@code sql} in Graphviz DOT. */
  public String explainDot(String sql) {
    return stageGraph(sql).toDot();
  }

  /**
   * EXPLAIN ANALYZE: runs {@code sql} (its rows are counted and dropped) and returns the stage
   * graph with what every task of every stage did: rows and batches in and out, bytes sent
   * downstream, busy time (see {@link dev.quiver.flink.stage.TaskStats}).
   */
  public String explainAnalyze(String sql) {
    long start = System.nanoTime();
    long rows = 0;
    try (SqlResult result = sql(sql)) {
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          rows += batch.getRowCount();
        }
      }
      long wall = System.nanoTime() - start;
      return AnalyzeText.render(result.graph(), result.taskStats(), rows, wall);
    }
  }

  /**
   * Makes {@code env} run a STREAMING job with checkpoints: every {@value
   * #STREAM_CHECKPOINT_MILLIS} ms unless the session's Flink configuration sets an interval.
   * Results reach the caller as each checkpoint completes, so the interval is also the result
   * latency. A failure restarts the job from its last checkpoint a bounded number of times ({@link
   * StreamingRestarts}) unless the configuration chooses a restart strategy.
   */
  private static void streaming(StreamExecutionEnvironment env) {
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    if (!env.getCheckpointConfig().isCheckpointingEnabled()) {
      env.enableCheckpointing(STREAM_CHECKPOINT_MILLIS);
    }
    StreamingRestarts.bound(env);
  }

  /** Refuses a savepoint (not null) for a query or INSERT {@code sql} that is not streaming. */
  private static void checkRestorable(String savepoint, boolean streaming, String sql) {
    if (savepoint != null && !streaming) {
      throw new QuiverException(
          ErrorCode.INVALID_QUERY,
          "only a streaming query restores a savepoint, and this one reads no unbounded table: "
              + jobName(sql).substring("quiver: ".length()));
    }
  }

  /** Makes the job of {@code env} start from {@code savepoint}, unless it is null. */
  private static void restoreFrom(StreamExecutionEnvironment env, String savepoint) {
    if (savepoint != null) {
      Configuration restore = new Configuration();
      restore.set(StateRecoveryOptions.SAVEPOINT_PATH, absolute(savepoint));
      env.configure(restore);
    }
  }

  /** {@code savepoint} as a URI: a path without a scheme is made absolute on this machine. */
  private static String absolute(String savepoint) {
    return savepoint.contains(":/")
        ? savepoint
        : Path.of(savepoint).toAbsolutePath().toUri().toString();
  }

  private synchronized PlanNode plan(String sql) {
    requireNonNull(sql, "sql is null");
    checkOpen();
    return new SqlPlanner(catalog).plan(sql, options);
  }

  private static String jobName(String sql) {
    String oneLine = sql.strip().replaceAll("\\s+", " ");
    return "quiver: "
        + (oneLine.length() <= JOB_NAME_CHARS
            ? oneLine
            : oneLine.substring(0, JOB_NAME_CHARS) + "...");
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the Quiver session is closed");
    }
  }

  /** The local cluster, or empty for a remote session (for tests). */
  Optional<LocalCluster> localCluster() {
    return cluster instanceof LocalCluster local ? Optional.of(local) : Optional.empty();
  }

  /**
   * Ends every open query, stops a local cluster and closes the session's allocator (which fails,
   * naming the leaked buffers, if result batches are still open). Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    // Results first (their jobs end while the cluster still runs), the allocator last.
    List<AutoCloseable> resources = new ArrayList<>(open);
    resources.add(cluster);
    resources.add(allocator);
    try {
      IOUtils.closeAll(resources);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot close the session on " + cluster.description(), e);
    } finally {
      LOG.info("Quiver session on {} closed", cluster.description());
    }
  }

  /**
   * Runs {@code query}, planned by this session, into a sink inside its job that counts its rows
   * and drops them ({@link RowCountSink}), and waits for the job's end: a query measured without
   * handing its rows to a caller (no collect sink, encoding or decoding), as a Flink SQL job
   * writing into {@code blackhole} is. The job is set up as {@link #run} sets it up (STREAMING with
   * checkpoints when the query reads an unbounded table); it must end, so its streams must be
   * bounded. {@code probe} sees each result batch in its task ({@link RowCountSink.Probe}).
   *
   * @throws TimeoutException if the job has not ended within {@code timeout}; it is cancelled
   * @throws ExecutionException if the job failed
   */
  public RowCount count(PlannedQuery query, RowCountSink.Probe probe, Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    requireNonNull(query, "query is null");
    requireNonNull(timeout, "timeout is null");
    checkOpen();
    StageGraph graph = stagePlanner.plan(query.plan());
    JobRunner runner =
        new JobRunner(stagePlanner, compiler.withScanSources(new CatalogScanSources()));
    JobClient client;
    try {
      StreamExecutionEnvironment env = cluster.environment();
      if (UnboundedInputs.readsUnbounded(query.plan())) {
        streaming(env);
      }
      client = runner.count(env, graph, probe, jobName(query.sql()));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("cannot submit the query to " + cluster.description(), e);
    }
    try {
      JobExecutionResult result =
          client.getJobExecutionResult().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return new RowCount(RowCountSink.rows(result), result);
    } catch (TimeoutException | InterruptedException e) {
      client.cancel().exceptionally(failure -> null);
      throw e;
    }
  }
}
