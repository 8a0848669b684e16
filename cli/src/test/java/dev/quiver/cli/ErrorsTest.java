package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class ErrorsTest {
  @Test
  void aQuiverExceptionAnywhereInTheChainIsTheMessage() {
    QuiverException quiver = new QuiverException(ErrorCode.DIVISION_BY_ZERO, "division by zero");
    RuntimeException wrapped =
        new IllegalStateException("job failed", new RuntimeException("task failed", quiver));
    assertThat(Errors.message(wrapped)).isEqualTo("[DIVISION_BY_ZERO] division by zero");
  }

  @Test
  void otherwiseTheMessageAndWhatActuallyHappened() {
    Exception connect =
        new IllegalStateException(
            "cannot submit the query to remote cluster h:8081",
            new RuntimeException(
                "Failed to execute job", new ConnectException("Connection refused")));
    assertThat(Errors.message(connect))
        .isEqualTo("cannot submit the query to remote cluster h:8081: Connection refused");
    assertThat(
            Errors.message(
                new UncheckedIOException("cannot write /x", new NoSuchFileException("/x/y"))))
        .isEqualTo("cannot write /x: no such file or directory: /x/y");
    assertThat(Errors.message(new NullPointerException())).isEqualTo("NullPointerException");
  }

  @Test
  void alwaysOneLine() {
    assertThat(Errors.message(new IllegalArgumentException("first\n  second\r\nthird\n")))
        .isEqualTo("first second third");
  }
}
