package dev.quiver.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP relay on loopback between a client and a server that a test can cut at once, as a network
 * that drops the client would: {@link #cut()} resets every connection (SO_LINGER 0, so the server
 * gets a TCP RST, not an orderly close), with nothing said at the protocol level.
 *
 * <pre>
 *   client ──► proxy port ──► server port      cut(): RST both ways, mid-stream
 * </pre>
 */
final class CuttableProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int target;
  private final List<Socket> sockets = new ArrayList<>();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          runnable -> {
            Thread thread = new Thread(runnable, "cuttable proxy");
            thread.setDaemon(true);
            return thread;
          });

  /** Relays connections to {@code targetPort} on loopback. */
  CuttableProxy(int targetPort) throws IOException {
    this.target = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  int port() {
    return listener.getLocalPort();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(server);
        }
        threads.execute(() -> pump(client, server));
        threads.execute(() -> pump(server, client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 << 10];
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to.getOutputStream();
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // cut, or the other side went away
    }
  }

  /** Resets every connection relayed so far. */
  void cut() {
    synchronized (sockets) {
      for (Socket socket : sockets) {
        try {
          socket.setSoLinger(true, 0);
          socket.close();
        } catch (IOException e) {
          // already closed
        }
      }
      sockets.clear();
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    cut();
    threads.shutdownNow();
  }
}
