package dev.quiver.flink.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The test broker's start notices a port taken by another process, which makes it try again. */
class KafkaBrokerTest {
  @Test
  void aPortTakenMeanwhileIsReportedAsTaken() throws Exception {
    KafkaBroker broker = new KafkaBroker();
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int controllerPort = free.getLocalPort();
      free.close();
      Throwable failure =
          catchThrowable(() -> broker.startOnce(taken.getLocalPort(), controllerPort));
      assertThat(failure).isNotNull();
      assertThat(KafkaBroker.portTaken(failure)).as("%s", failure).isTrue();
    } finally {
      broker.close();
    }
  }
}
