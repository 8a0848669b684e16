package dev.quiver.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A Flink REST endpoint, {@code HOST:PORT} ({@code [::1]:8081} for an IPv6 address). */
record HostPort(String host, int port) {
  /** Parses {@code HOST:PORT}; the port must be in 1..65535. */
  static HostPort parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException(
          "expected HOST:PORT, e.g. localhost:8081, not '" + text + "'");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (port < 1 || port > 65535 || host.isEmpty()) {
      throw new IllegalArgumentException(
          "expected HOST:PORT with a port in 1..65535, not '" + text + "'");
    }
    return new HostPort(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** For picocli: a bad value is a usage error. */
  static final class Converter implements ITypeConverter<HostPort> {
    @Override
    public HostPort convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
