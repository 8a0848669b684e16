package dev.quiver.examples.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.TaskManagerOptions.TaskManagerLoadBalanceMode;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.dispatcher.Dispatcher;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * A Flink standalone session cluster of separate JVMs on the loopback interface: one JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and some TaskManagers ({@code TaskManagerRunner}),
 * started the way Flink's {@code bin/jobmanager.sh} and {@code bin/taskmanager.sh} start them, but
 * without a Flink distribution:
 *
 * <ul>
 *   <li>the class path is the Flink part of this JVM's ({@link ClusterClasspath});
 *   <li>{@code config.yaml} is written into a configuration directory of its own ({@code
 *       --configDir}), with free ports for the JobManager's RPC and REST endpoints and port 0 (any
 *       free one) for everything else;
 *   <li>the JVM memory flags and the resolved memory sizes a TaskManager requires are computed from
 *       that configuration as the scripts have {@code BashJavaUtils} do;
 *   <li>every process keeps its temporary files, logs and standard output in its own folder under
 *       the cluster's directory.
 * </ul>
 *
 * Closing stops every process (SIGTERM, then SIGKILL after a grace period), also when the test JVM
 * exits without closing it.
 */
final class StandaloneCluster implements AutoCloseable {
  private static final String LOOPBACK = "127.0.0.1";
  private static final String JOB_MANAGER =
      "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  private static final String TASK_MANAGER =
      "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

  /** What {@code bin/flink} runs. */
  private static final String CLIENT = "org.apache.flink.client.cli.CliFrontend";

  /** What Flink's default config.yaml gives every process on Java 17 (env.java.opts.all). */
  private static final List<String> JAVA_17_OPENS =
      List.of(
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.text=ALL-UNNAMED",
          "--add-opens=java.base/java.time=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

  /** Small JVMs on few cores: a serial collector, and C1 only (faster start, less compiling). */
  private static final List<String> SMALL_JVM =
      List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private static final Duration STOP_GRACE = Duration.ofSeconds(20);

  private final Path dir;
  private final Path confDir;
  private final String classPath;
  private final int restPort;
  private final int slotsPerTaskManager;
  private final String taskManagerJvm; // the JVM flags and dynamic settings of every TaskManager
  private final String taskManagerDynamic;
  private int taskManagersStarted;
  private final List<Process> daemons = new ArrayList<>(); // the JobManager, the TaskManagers
  private final List<Process> clients = new ArrayList<>();
  private final List<Process> killed = new ArrayList<>(); // daemons a test killed
  private final List<Path> logs = new ArrayList<>();
  private final Map<Process, Path> homes = new HashMap<>(); // each process's folder
  private final Thread killer = new Thread(this::kill, "kill flink cluster");

  private StandaloneCluster(Path dir, Path confDir, String classPath, Configuration conf) {
    this.dir = dir;
    this.confDir = confDir;
    this.classPath = classPath;
    this.restPort = conf.get(RestOptions.PORT);
    this.slotsPerTaskManager = conf.get(TaskManagerOptions.NUM_TASK_SLOTS);
    TaskExecutorProcessSpec tm = TaskExecutorProcessUtils.processSpecFromConfig(conf);
    this.taskManagerJvm = ProcessMemoryUtils.generateJvmParametersStr(tm);
    this.taskManagerDynamic = TaskExecutorProcessUtils.generateDynamicConfigsStr(tm);
    Runtime.getRuntime().addShutdownHook(killer);
  }

  /**
   * Starts a JobManager and {@code taskManagers} TaskManagers of {@code slots} slots each in {@code
   * dir}; returns at once (see {@link #awaitSlots}).
   */
  static StandaloneCluster start(Path dir, int taskManagers, int slots) throws IOException {
    Configuration conf = new Configuration();
    conf.set(JobManagerOptions.ADDRESS, LOOPBACK);
    conf.set(JobManagerOptions.BIND_HOST, LOOPBACK);
    conf.set(JobManagerOptions.PORT, freePort());
    conf.set(JobManagerOptions.TOTAL_PROCESS_MEMORY, MemorySize.parse("768m"));
    conf.set(RestOptions.ADDRESS, LOOPBACK);
    conf.set(RestOptions.BIND_ADDRESS, LOOPBACK);
    conf.set(RestOptions.PORT, freePort());
    conf.set(TaskManagerOptions.HOST, LOOPBACK);
    conf.set(TaskManagerOptions.BIND_HOST, LOOPBACK);
    conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
    conf.set(TaskManagerOptions.TOTAL_PROCESS_MEMORY, MemorySize.parse("1g"));
    // Quiver's tasks take their memory budgets from managed memory and keep their batches in
    // Arrow's native memory beside it; the data here is small, so the heap keeps the larger share.
    conf.set(TaskManagerOptions.MANAGED_MEMORY_FRACTION, 0.1f);
    // A lost TaskManager fails the tasks it ran, and the job restarts them elsewhere: a dead
    // TaskManager is noticed after two failed heartbeats (heartbeat.rpc-failure-threshold).
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
    conf.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, Duration.ofSeconds(1));
    conf.set(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT, Duration.ofSeconds(15));
    // A job whose client stopped sending heartbeats (killed: TaskManagerKillsIT) is cancelled
    // within a second of its client.heartbeat.timeout, not a minute.
    conf.set(Dispatcher.CLIENT_ALIVENESS_CHECK_DURATION, Duration.ofSeconds(1));
    // Spread slots over the TaskManagers, so that a job's stages talk over the network.
    conf.set(TaskManagerOptions.TASK_MANAGER_LOAD_BALANCE_MODE, TaskManagerLoadBalanceMode.SLOTS);

    Path confDir = Files.createDirectories(dir.resolve("conf"));
    writeConfigYaml(conf, confDir.resolve("config.yaml"));
    Files.writeString(confDir.resolve("log4j.properties"), LOG4J, UTF_8);
    String classPath = String.join(File.pathSeparator, classPath());

    StandaloneCluster cluster = new StandaloneCluster(dir, confDir, classPath, conf);
    try {
      JobManagerProcessSpec jm = JobManagerProcessUtils.processSpecFromConfig(conf);
      cluster.daemons.add(
          cluster.launch(
              "jobmanager",
              JobManagerProcessUtils.generateJvmParametersStr(jm, conf),
              JOB_MANAGER,
              List.of("--configDir", confDir.toString()),
              JobManagerProcessUtils.generateDynamicConfigsStr(jm)));
      for (int i = 0; i < taskManagers; i++) {
        cluster.startTaskManager();
      }
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * Starts one more TaskManager (in folder {@code taskmanager-N}, N counting every TaskManager this
   * cluster started), e.g. in place of a killed one; returns at once (see {@link #awaitSlots}).
   */
  synchronized void startTaskManager() throws IOException {
    daemons.add(
        launch(
            "taskmanager-" + taskManagersStarted++,
            taskManagerJvm,
            TASK_MANAGER,
            List.of("--configDir", confDir.toString()),
            taskManagerDynamic));
  }

  /** The TaskManagers still running (not killed). */
  synchronized int liveTaskManagers() {
    return (int) daemons.stream().skip(1).filter(p -> !killed.contains(p)).count();
  }

  /**
   * Starts TaskManagers in place of those a test killed and waits until the JobManager counts
   * exactly {@code taskManagers} TaskManagers with all their slots: the killed ones gone (noticed
   * by their missed heartbeats), the new ones registered.
   */
  void restore(int taskManagers, Duration timeout) throws IOException, InterruptedException {
    while (liveTaskManagers() < taskManagers) {
      startTaskManager();
    }
    awaitSlots(taskManagers * slotsPerTaskManager, timeout);
  }

  /** The temporary directory ({@code io.tmp.dirs}) of the TaskManager of process {@code pid}. */
  synchronized Path temporaryDirectory(long pid) {
    for (int i = 1; i < daemons.size(); i++) {
      if (daemons.get(i).pid() == pid) {
        return homes.get(daemons.get(i)).resolve("tmp");
      }
    }
    throw new IllegalArgumentException("no TaskManager has the process id " + pid);
  }

  /**
   * The process id of the running TaskManager whose id is {@code taskManagerId} (the REST API's
   * {@code taskmanager-id}): the JobManager lists the files of its log folder ({@code
   * /taskmanagers/:id/logs}), and the folder is the process's own ({@code taskmanager-N}).
   */
  long taskManagerPid(String taskManagerId) throws IOException {
    String path = "/taskmanagers/" + taskManagerId + "/logs";
    for (JsonNode log : rest().get(path).path("logs")) {
      String name = log.path("name").asText();
      synchronized (this) {
        for (int i = 1; i < daemons.size(); i++) {
          Process process = daemons.get(i);
          String folder = homes.get(process).getFileName().toString();
          if (process.isAlive() && name.equals(folder + ".log")) {
            return process.pid();
          }
        }
      }
    }
    throw new IllegalStateException(
        "no running TaskManager process writes the logs of " + taskManagerId);
  }

  /** The temporary directories of the TaskManagers still running. */
  synchronized List<Path> liveTemporaryDirectories() {
    List<Path> dirs = new ArrayList<>();
    for (int i = 1; i < daemons.size(); i++) {
      if (!killed.contains(daemons.get(i))) {
        dirs.add(homes.get(daemons.get(i)).resolve("tmp"));
      }
    }
    return dirs;
  }

  /** The class path of every process of the cluster: Flink and its dependencies only. */
  static List<String> classPath() {
    String testClassPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return ClusterClasspath.flinkOnly(testClassPath);
  }

  /**
   * Runs {@code bin/flink ARGS} against this cluster, as the script would (the cluster's class path
   * and configuration directory), and waits for it; returns its exit status and output.
   */
  ClientRun flink(Duration timeout, String... args) throws IOException, InterruptedException {
    String name = "client-" + clients.size();
    Process client = launch(name, "-Xmx512m", CLIENT, List.of(args), "");
    clients.add(client);
    if (!client.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      client.destroyForcibly().waitFor();
    }
    Path out = dir.resolve(name).resolve(name + ".out");
    return new ClientRun(client.exitValue(), Files.readString(out, UTF_8));
  }

  /** What a {@code bin/flink} command printed, and its exit status. */
  record ClientRun(int status, String output) {}

  private synchronized Process launch(
      String name, String jvm, String main, List<String> args, String dynamic) throws IOException {
    Path home = Files.createDirectories(dir.resolve(name));
    Path tmp = Files.createDirectories(home.resolve("tmp"));
    Path log = home.resolve(name + ".log");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse(javaFromHome()));
    command.addAll(words(jvm));
    command.addAll(JAVA_17_OPENS);
    command.addAll(SMALL_JVM);
    command.add("-Djava.io.tmpdir=" + tmp);
    command.add("-Dlog.file=" + log);
    command.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties").toUri());
    command.add("-cp");
    command.add(classPath);
    command.add(main);
    command.addAll(args);
    command.addAll(words(dynamic));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(home.resolve(name + ".out").toFile());
    builder.environment().put("FLINK_CONF_DIR", confDir.toString()); // for bin/flink's CliFrontend
    logs.add(log);
    logs.add(home.resolve(name + ".out"));
    Process process = builder.start();
    homes.put(process, home);
    return process;
  }

  int restPort() {
    return restPort;
  }

  URI restAddress() {
    return URI.create("http://" + LOOPBACK + ":" + restPort);
  }

  FlinkRest rest() {
    return new FlinkRest(restAddress());
  }

  /**
   * Waits until the JobManager counts {@code slots} slots in all, from exactly the TaskManagers
   * still running (a killed one is counted until its missed heartbeats are noticed).
   */
  void awaitSlots(int slots, Duration timeout) throws InterruptedException {
    FlinkRest rest = rest();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      List<Process> processes;
      synchronized (this) {
        processes = new ArrayList<>(daemons);
        processes.removeAll(killed);
      }
      for (Process process : processes) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "a cluster process exited with " + process.exitValue() + "\n" + logTails());
        }
      }
      try {
        JsonNode overview = rest.get("/overview");
        last = overview.toString();
        if (overview.path("slots-total").asInt() == slots
            && overview.path("taskmanagers").asInt() == processes.size() - 1) {
          return;
        }
      } catch (IOException | UncheckedIOException e) {
        last = e.toString(); // not listening yet
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(
        "the cluster has not registered "
            + slots
            + " slots in "
            + timeout
            + ": "
            + last
            + "\n"
            + logTails());
  }

  /**
   * Kills the TaskManager whose process id is {@code pid} with SIGKILL, as a machine that dies
   * would vanish, and waits until its process has gone. Later calls of {@link #awaitSlots} count
   * only the TaskManagers still running.
   */
  synchronized void killTaskManager(long pid) throws InterruptedException {
    for (int i = 1; i < daemons.size(); i++) { // daemon 0 is the JobManager
      Process process = daemons.get(i);
      if (process.isAlive() && process.pid() == pid) {
        process.destroyForcibly(); // SIGKILL
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("TaskManager " + pid + " survived SIGKILL");
        }
        killed.add(process);
        return;
      }
    }
    throw new IllegalArgumentException("no running TaskManager has the process id " + pid);
  }

  /** The lines of every process's log that contain {@code text}. */
  synchronized List<String> logLinesContaining(String text) {
    List<String> found = new ArrayList<>();
    for (Path log : logs) {
      try {
        if (Files.exists(log)) {
          Files.readAllLines(log, UTF_8).stream().filter(l -> l.contains(text)).forEach(found::add);
        }
      } catch (IOException | UncheckedIOException e) {
        found.add(log + ": unreadable: " + e);
      }
    }
    return found;
  }

  /** The last lines of every process's log and standard output, for failure messages. */
  synchronized String logTails() {
    StringBuilder text = new StringBuilder();
    for (Path log : logs) {
      text.append("==> ").append(log).append(" <==\n");
      try {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log, UTF_8) : List.of();
        lines
            .subList(Math.max(0, lines.size() - 40), lines.size())
            .forEach(line -> text.append(line).append('\n'));
      } catch (IOException | UncheckedIOException e) {
        text.append("(unreadable: ").append(e).append(")\n");
      }
    }
    return text.toString();
  }

  /** Stops every process: SIGTERM to all, then SIGKILL to any still running after the grace. */
  @Override
  public void close() {
    List<Process> processes = new ArrayList<>(clients);
    processes.addAll(daemons);
    processes.forEach(Process::destroy);
    long deadline = System.nanoTime() + STOP_GRACE.toNanos();
    for (Process process : processes) {
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        if (!process.waitFor(left, TimeUnit.NANOSECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killer);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down, and the hook runs anyway
    }
  }

  private void kill() {
    clients.forEach(Process::destroyForcibly);
    daemons.forEach(Process::destroyForcibly);
  }

  private static void writeConfigYaml(Configuration conf, Path file) throws IOException {
    StringBuilder yaml = new StringBuilder("# Written by StandaloneCluster for one test run.\n");
    for (Map.Entry<String, String> entry : conf.toMap().entrySet()) {
      String value = entry.getValue().replace("'", "''");
      yaml.append(entry.getKey()).append(": '").append(value).append("'\n");
    }
    Files.writeString(file, yaml.toString(), UTF_8);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    }
  }

  private static String javaFromHome() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static List<String> words(String text) {
    return text.isBlank() ? List.of() : Arrays.asList(text.trim().split("\\s+"));
  }

  /** Each process logs to its own file (the system property log.file), at INFO. */
  private static final String LOG4J =
      String.join(
          "\n",
          "rootLogger.level = INFO",
          "rootLogger.appenderRef.file.ref = File",
          "appender.file.type = File",
          "appender.file.name = File",
          "appender.file.fileName = ${sys:log.file}",
          "appender.file.layout.type = PatternLayout",
          "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} [%t] - %m%n",
          "");
}
