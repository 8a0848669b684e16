package dev.quiver.server;

import dev.quiver.error.QuiverException;
import java.util.Optional;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.flink.util.ExceptionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a client sees when a call fails: a Flight status and one line of text, never a stack trace.
 *
 * <ul>
 *   <li>a {@link QuiverException} among the causes (bad SQL with its position, an unknown table or
 *       column, a type mismatch, a division by zero while running): its own one-line message, with
 *       INVALID_ARGUMENT, except UNIMPLEMENTED for {@code not supported: ...} and
 *       RESOURCE_EXHAUSTED for a memory budget exceeded;
 *   <li>a {@link FlightRuntimeException}: as it is (the server's own errors: busy, cancelled);
 *   <li>anything else is a bug or an outage: INTERNAL with the exception's message, and the stack
 *       trace in the server's log.
 * </ul>
 */
final class FlightErrors {
  private static final Logger LOG = LoggerFactory.getLogger(FlightErrors.class);

  private FlightErrors() {}

  /** The Flight error to send for {@code e}. */
  static FlightRuntimeException of(Throwable e) {
    Optional<QuiverException> quiver = ExceptionUtils.findThrowable(e, QuiverException.class);
    if (quiver.isPresent()) {
      CallStatus status =
          switch (quiver.get().code()) {
            case UNSUPPORTED_FEATURE, UNSUPPORTED_TYPE -> CallStatus.UNIMPLEMENTED;
            case MEMORY_BUDGET_EXCEEDED -> CallStatus.RESOURCE_EXHAUSTED;
            case TASK_FAILED -> CallStatus.INTERNAL; // not the query's fault: a bug, a lost task
            default -> CallStatus.INVALID_ARGUMENT;
          };
      return status.withDescription(oneLine(quiver.get().getMessage())).toRuntimeException();
    }
    Optional<FlightRuntimeException> flight =
        ExceptionUtils.findThrowable(e, FlightRuntimeException.class);
    if (flight.isPresent()) {
      return flight.get();
    }
    LOG.warn("A call failed with an internal error", e);
    Throwable root = ExceptionUtils.stripExecutionException(e);
    String message = root.getMessage() == null ? root.getClass().getName() : root.getMessage();
    return CallStatus.INTERNAL.withDescription(oneLine(message)).toRuntimeException();
  }

  /** The first line of {@code text}. */
  static String oneLine(String text) {
    int end = text.indexOf('\n');
    return (end < 0 ? text : text.substring(0, end)).strip();
  }
}
