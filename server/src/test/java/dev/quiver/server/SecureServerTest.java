package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication (basic, then a bearer token) and TLS with a self-signed certificate made by the
 * JDK's {@code keytool} in the test.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecureServerTest {
  @TempDir static Path dir;
  static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    NumbersTable.write(dir, "small", 100);
    session = QuiverSession.builder().parallelism(1).build();
    session.registerDirectory(dir);
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @Test
  void aPasswordServerRefusesWrongCredentialsAndServesRightOnes(BufferAllocator allocator)
      throws Exception {
    try (QuiverFlightServer server =
        QuiverFlightServer.builder(session)
            .port(0)
            .authentication(Authentication.password("alice", "s3cret"))
            .start()) {
      try (FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
        assertThatThrownBy(() -> client.authenticateBasicToken("alice", "wrong"))
            .isInstanceOfSatisfying(
                FlightRuntimeException.class,
                e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED));
        FlightSqlClient sql = new FlightSqlClient(client);
        assertThatThrownBy(() -> sql.execute("select count(*) from small"))
            .as("no credentials")
            .isInstanceOfSatisfying(
                FlightRuntimeException.class,
                e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED));
        CallOption token = client.authenticateBasicToken("alice", "s3cret").orElseThrow();
        var info = sql.execute("select count(*) from small", token);
        assertThat(rows(sql, info, token)).containsExactly(List.of(100L));
      }
    }
  }

  @Test
  void tlsServesClientsThatTrustItsCertificate(BufferAllocator allocator) throws Exception {
    Path cert = dir.resolve("server.pem");
    Path key = dir.resolve("server.key");
    selfSigned(cert, key);
    try (QuiverFlightServer server =
        QuiverFlightServer.builder(session)
            .port(0)
            .authentication(Authentication.none())
            .tls(cert, key)
            .start()) {
      assertThat(server.location().getUri().getScheme()).isEqualTo("grpc+tls");
      try (InputStream trusted = Files.newInputStream(cert);
          FlightSqlClient client =
              new FlightSqlClient(
                  FlightClient.builder(allocator, Location.forGrpcTls("127.0.0.1", server.port()))
                      .trustedCertificates(trusted)
                      .build())) {
        assertThat(rows(client, client.execute("select count(*) from small")))
            .containsExactly(List.of(100L));
      }
      String jdbc =
          "jdbc:arrow-flight-sql://localhost:"
              + server.port()
              + "/?useEncryption=true&tlsRootCerts="
              + cert;
      try (Connection connection = DriverManager.getConnection(jdbc);
          Statement statement = connection.createStatement();
          ResultSet rs = statement.executeQuery("select sum(id) from small")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).as("JDBC over TLS").isEqualTo(4950);
      }
      try (FlightSqlClient plain =
          new FlightSqlClient(
              FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port()))
                  .build())) {
        assertThatThrownBy(() -> plain.execute("select 1"))
            .as("a client without TLS")
            .isInstanceOf(FlightRuntimeException.class);
      }
    }
  }

  private static List<List<Object>> rows(
      FlightSqlClient client, org.apache.arrow.flight.FlightInfo info, CallOption... options)
      throws Exception {
    List<List<Object>> rows = new java.util.ArrayList<>();
    try (var stream = client.getStream(info.getEndpoints().get(0).getTicket(), options)) {
      while (stream.next()) {
        var root = stream.getRoot();
        for (int i = 0; i < root.getRowCount(); i++) {
          List<Object> row = new java.util.ArrayList<>();
          for (var vector : root.getFieldVectors()) {
            row.add(vector.getObject(i));
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }

  /** A self-signed certificate for 127.0.0.1 and localhost, and its key, as PEM files. */
  static void selfSigned(Path certFile, Path keyFile) throws Exception {
    Path store = certFile.resolveSibling("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process =
        new ProcessBuilder(
                keytool,
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as("keytool: %s", output).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    Certificate certificate = keys.getCertificate("server");
    PrivateKey privateKey = (PrivateKey) keys.getKey("server", "changeit".toCharArray());
    Files.writeString(certFile, pem("CERTIFICATE", certificate.getEncoded()));
    Files.writeString(keyFile, pem("PRIVATE KEY", privateKey.getEncoded())); // PKCS#8
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
