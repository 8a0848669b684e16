package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.GeneratedBearerTokenAuthenticator;

/**
 * Who may connect: one user name and password, checked by HTTP basic authentication on a client's
 * first call, which hands out a bearer token for the calls after it (Arrow's {@link
 * BasicCallHeaderAuthenticator} inside a {@link GeneratedBearerTokenAuthenticator}, what the Flight
 * SQL JDBC driver and ADBC expect); or nobody checked at all, which must be asked for.
 */
public sealed interface Authentication {
  /** Clients must send this user name and password. */
  static Authentication password(String user, String password) {
    return new Password(user, password);
  }

  /** No authentication: anyone who can reach the port runs queries. */
  static Authentication none() {
    return new None();
  }

  /** The authenticator the Flight server runs on every call. */
  CallHeaderAuthenticator authenticator();

  /** One user name and password. */
  record Password(String user, String password) implements Authentication {
    public Password {
      requireNonNull(user, "user is null");
      requireNonNull(password, "password is null");
      if (user.isEmpty()) {
        throw new IllegalArgumentException("the user name is empty");
      }
      if (password.isEmpty()) {
        throw new IllegalArgumentException("the password is empty");
      }
    }

    @Override
    public CallHeaderAuthenticator authenticator() {
      byte[] expectedUser = user.getBytes(StandardCharsets.UTF_8);
      byte[] expectedPassword = password.getBytes(StandardCharsets.UTF_8);
      return new GeneratedBearerTokenAuthenticator(
          new BasicCallHeaderAuthenticator(
              (givenUser, givenPassword) -> {
                // Both compared in constant time, so timing tells nothing about either.
                boolean userOk =
                    MessageDigest.isEqual(expectedUser, givenUser.getBytes(StandardCharsets.UTF_8));
                boolean passwordOk =
                    MessageDigest.isEqual(
                        expectedPassword, givenPassword.getBytes(StandardCharsets.UTF_8));
                if (!(userOk && passwordOk)) {
                  throw CallStatus.UNAUTHENTICATED
                      .withDescription("wrong user name or password")
                      .toRuntimeException();
                }
                return () -> givenUser;
              }));
    }

    @Override
    public String toString() {
      return "Password[user=" + user + "]";
    }
  }

  /** No authentication. */
  record None() implements Authentication {
    @Override
    public CallHeaderAuthenticator authenticator() {
      return CallHeaderAuthenticator.NO_OP;
    }
  }
}
