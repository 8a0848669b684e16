package dev.quiver.nexmark;

/**
 * A new person (the spec's {@code Person}): a holder the generator overwrites with each person it
 * generates, read before the next one.
 */
public final class Person {
  long id;
  final Text name = new Text(0);
  final Text emailAddress = new Text(16);
  final Text creditCard = new Text(19);
  final Text city = new Text(0);
  final Text state = new Text(0);
  long dateTime;
  final Text extra = new Text(0);

  public long id() {
    return id;
  }

  public Text name() {
    return name;
  }

  public Text emailAddress() {
    return emailAddress;
  }

  public Text creditCard() {
    return creditCard;
  }

  public Text city() {
    return city;
  }

  public Text state() {
    return state;
  }

  /** Event time, milliseconds since the epoch. */
  public long dateTime() {
    return dateTime;
  }

  public Text extra() {
    return extra;
  }

  @Override
  public String toString() {
    return "Person["
        + id
        + ", "
        + name
        + ", "
        + emailAddress
        + ", "
        + creditCard
        + ", "
        + city
        + ", "
        + state
        + ", "
        + dateTime
        + ", "
        + extra
        + "]";
  }
}
