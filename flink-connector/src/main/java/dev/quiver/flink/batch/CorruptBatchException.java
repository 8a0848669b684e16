package dev.quiver.flink.batch;

import java.io.IOException;

/** Serialized bytes on an edge that do not decode to a valid batch of the edge's schema. */
public final class CorruptBatchException extends IOException {
  private static final long serialVersionUID = 1L;

  CorruptBatchException(String edge, String problem, Throwable cause) {
    super("corrupt Arrow batch on edge '" + edge + "': " + problem, cause);
  }

  CorruptBatchException(String edge, String problem) {
    this(edge, problem, null);
  }
}
