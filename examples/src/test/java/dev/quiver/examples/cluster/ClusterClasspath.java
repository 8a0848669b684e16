package dev.quiver.examples.cluster;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The class path of the cluster's JVMs: the entries of this test JVM's class path that are Flink's
 * jars or the jars of Flink's own dependencies (what a Flink distribution's {@code lib/} holds),
 * and nothing else. Quiver's classes, Arrow, Calcite, DuckDB and the test libraries stay out, so
 * whatever Quiver code a job runs on the cluster must come from the jar shipped with the job.
 */
final class ClusterClasspath {
  /**
   * Maven repository folders of Flink and of what Flink 2.3 depends on (flink-clients,
   * flink-streaming-java, flink-runtime-web, flink-table-api-java-bridge), plus the logging backend
   * a distribution ships.
   */
  private static final List<String> FLINK_AND_DEPENDENCIES =
      List.of(
          "org/apache/flink/",
          "org/apache/logging/log4j/",
          "org/slf4j/",
          "at/yawk/lz4/",
          "com/esotericsoftware/",
          "com/google/code/findbugs/",
          "com/ibm/icu/",
          "commons-cli/",
          "commons-collections/",
          "commons-io/",
          "org/apache/commons/commons-compress/",
          "org/apache/commons/commons-lang3/",
          "org/apache/commons/commons-math3/",
          "org/apache/commons/commons-text/",
          "org/javassist/",
          "org/objenesis/",
          "org/roaringbitmap/",
          "org/snakeyaml/",
          "org/xerial/snappy/",
          "tools/profiler/");

  private static final String KAFKA_CONNECTOR = "org/apache/flink/flink-connector-kafka/";

  /**
   * Flink artifacts a distribution's {@code lib/} does not hold: connectors other than the file
   * system's. A job that reads Kafka ships the connector inside {@code quiver-job.jar}.
   */
  private static final List<String> NOT_IN_A_DISTRIBUTION = List.of(KAFKA_CONNECTOR);

  private ClusterClasspath() {}

  /** The Flink jars of {@code classPath} (entries separated by the platform's separator). */
  static List<String> flinkOnly(String classPath) {
    return Arrays.stream(classPath.split(File.pathSeparator))
        .filter(entry -> entry.endsWith(".jar"))
        .filter(ClusterClasspath::isFlinkOrDependency)
        .collect(Collectors.toList());
  }

  private static boolean isFlinkOrDependency(String jar) {
    String path = jar.replace(File.separatorChar, '/');
    return FLINK_AND_DEPENDENCIES.stream().anyMatch(folder -> path.contains("/" + folder))
        && NOT_IN_A_DISTRIBUTION.stream().noneMatch(folder -> path.contains("/" + folder));
  }
}
