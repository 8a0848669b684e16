package dev.quiver.flink.testing;

import dev.quiver.formats.FileWriters;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka broker in this JVM for a test class: Apache Kafka's KRaft server in combined mode
 * (broker and controller, one node), listening on loopback ports picked free at start, its log
 * directory a temporary directory deleted when the class is done.
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();
 * ... KAFKA.createTopic("events", 2); KAFKA.send("events", 0, "{\"id\": 1}");
 * }</pre>
 */
public final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaBroker.class);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  private Path logDir;
  private KafkaRaftServer server;
  private String bootstrapServers;
  private KafkaProducer<byte[], byte[]> producer;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /**
   * Starts the broker and waits until it answers. Its ports are found free just before it binds
   * them; if another process took one in between, it starts again on other ports (at most {@value
   * #START_ATTEMPTS} times), so the test does not depend on that race.
   */
  public void start() throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        int[] ports = freePorts();
        startOnce(ports[0], ports[1]);
        return;
      } catch (Exception e) {
        if (attempt >= START_ATTEMPTS || !portTaken(e)) {
          throw e;
        }
        LOG.warn("a port of the Kafka broker was taken meanwhile; starting again", e);
        close();
      }
    }
  }

  private static final int START_ATTEMPTS = 3;

  static boolean portTaken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException) {
        return true;
      }
    }
    return false;
  }

  void startOnce(int brokerPort, int controllerPort) throws Exception {
    logDir = Files.createTempDirectory("quiver-kafka-");
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    props.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("log.dirs", logDir.toString());
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("auto.create.topics.enable", "false");
    // Two cores shared with the test's Flink cluster: few threads.
    props.put("num.network.threads", "1");
    props.put("num.io.threads", "2");
    props.put("num.recovery.threads.per.data.dir", "1");
    props.put("background.threads", "2");
    KafkaConfig config = KafkaConfig.fromProps(props, false);
    new Formatter()
        .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
        .setClusterId(Uuid.randomUuid().toString())
        .setNodeId(1)
        .setDirectories(List.of(logDir.toString()))
        .setMetadataLogDirectory(logDir.toString())
        .setControllerListenerName("CONTROLLER")
        .setReleaseVersion(MetadataVersion.latestProduction())
        .run();
    server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    bootstrapServers = "127.0.0.1:" + brokerPort;
    awaitReady();
    LOG.info("Kafka broker at {} with log dir {}", bootstrapServers, logDir);
  }

  private void awaitReady() throws Exception {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try (Admin admin = admin()) {
      while (true) {
        try {
          admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
          return;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "the Kafka broker did not start in " + READY_TIMEOUT, e);
          }
        }
      }
    }
  }

  /** {@code host:port} of the broker. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** Creates {@code topic} with {@code partitions} partitions (replication 1). */
  public void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Sends {@code values} to partition {@code partition} of {@code topic}; returns their offsets.
   */
  public List<Long> send(String topic, int partition, List<String> values) throws Exception {
    List<Future<RecordMetadata>> sent = new ArrayList<>(values.size());
    for (String value : values) {
      byte[] bytes = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
      sent.add(producer().send(new ProducerRecord<>(topic, partition, null, bytes)));
    }
    producer().flush();
    List<Long> offsets = new ArrayList<>(sent.size());
    for (Future<RecordMetadata> future : sent) {
      offsets.add(future.get(30, TimeUnit.SECONDS).offset());
    }
    return offsets;
  }

  /**
   * The values of {@code topic} from the start of each partition to its end now, partition by
   * partition. With {@code committedOnly}, as a consumer with {@code isolation.level =
   * read_committed} reads them: up to each partition's last stable offset, the records of aborted
   * transactions left out; else every record written, aborted ones too.
   */
  public List<String> values(String topic, boolean committedOnly) {
    return records(topic, committedOnly).stream().map(Map.Entry::getValue).toList();
  }

  /**
   * The records of {@code topic} as {@link #values} reads them, each its key and its value as text
   * (null: none, a value null is a tombstone).
   */
  public List<Map.Entry<String, String>> records(String topic, boolean committedOnly) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            committedOnly ? "read_committed" : "read_uncommitted",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      // A read_committed consumer's end offsets are the last stable offsets.
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      List<Map.Entry<String, String>> records = new ArrayList<>();
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("cannot read " + topic + " to " + end);
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          records.add(
              new AbstractMap.SimpleImmutableEntry<>(text(record.key()), text(record.value())));
        }
      }
      return records;
    }
  }

  private static String text(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  private KafkaProducer<byte[], byte[]> producer() {
    if (producer == null) {
      Map<String, Object> config =
          Map.of(
              ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
              bootstrapServers,
              ProducerConfig.ACKS_CONFIG,
              "all",
              ProducerConfig.LINGER_MS_CONFIG,
              0,
              ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
              true,
              // One request at a time, never timed out by the client: on 2 loaded cores a timed
              // out request was retried beside later ones, the broker answered "out of order
              // sequence" until the records expired (a suite run, 2026-12-02).
              ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
              1,
              ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
              300_000,
              ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
              600_000);
      producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
    return producer;
  }

  private Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  /** Stops the broker and deletes its log directory. */
  public void close() {
    try {
      if (producer != null) {
        producer.close(Duration.ofSeconds(10));
        producer = null;
      }
    } finally {
      try {
        if (server != null) {
          server.shutdown();
          server.awaitShutdown();
          server = null;
        }
      } finally {
        if (logDir != null) {
          FileWriters.deleteRecursively(logDir);
          logDir = null;
        }
      }
    }
  }

  // Bound and released at once: the broker binds it a moment later (if something else took it in
  // between, start tries again on other ports).
  /**
   * Two free ports, different: both sockets are open while the second is chosen (one after the
   * other, the system may hand out the same ephemeral port twice, and Kafka refuses two listeners
   * on one port).
   */
  private static int[] freePorts() throws IOException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (ServerSocket first = new ServerSocket(0, 1, loopback);
        ServerSocket second = new ServerSocket(0, 1, loopback)) {
      first.setReuseAddress(true);
      second.setReuseAddress(true);
      return new int[] {first.getLocalPort(), second.getLocalPort()};
    }
  }
}
