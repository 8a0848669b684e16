package dev.quiver.flink.kafka;

/** How the values of a topic's messages are written. */
public enum KafkaValueFormat {
  /**
   * One JSON object per message; keys are column names (unknown keys are ignored, a missing key or
   * JSON null is NULL).
   */
  JSON,
  /**
   * One CSV line per message, fields in schema order (RFC 4180 quoting with {@code "}; an empty
   * unquoted field is NULL, {@code ""} is the empty string; no header).
   */
  CSV
}
