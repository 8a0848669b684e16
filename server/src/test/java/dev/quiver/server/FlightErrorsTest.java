package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import org.apache.arrow.flight.FlightStatusCode;
import org.junit.jupiter.api.Test;

class FlightErrorsTest {
  @Test
  void aFailedTaskIsAnInternalErrorWithItsOneLine() {
    QuiverException failed =
        new QuiverException(
            ErrorCode.TASK_FAILED, "IllegalStateException: boom (stage 1, task 0 of 2)");
    var flight = FlightErrors.of(new RuntimeException("wrapped", failed));
    assertThat(flight.status().code()).isEqualTo(FlightStatusCode.INTERNAL);
    assertThat(flight.getMessage()).contains("[TASK_FAILED]").contains("(stage 1, task 0 of 2)");
  }

  @Test
  void whatTheUserCanFixStaysAnInvalidArgument() {
    var flight = FlightErrors.of(new QuiverException(ErrorCode.DIVISION_BY_ZERO, "division by 0"));
    assertThat(flight.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
  }
}
