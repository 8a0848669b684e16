package dev.quiver.operators.aggregate;

/**
 * Per-batch scratch arrays shared by the accumulators of one operator (one runs at a time), grown
 * to the largest batch and reserved in the budget.
 */
final class Scratch {
  private final Reservation reservation;
  private long[] longs = new long[0];
  private double[] doubles = new double[0];

  Scratch(Reservation reservation) {
    this.reservation = reservation;
  }

  long[] longs(int rows) {
    if (rows > longs.length) {
      int capacity = Reservation.grownCapacity(longs.length, rows);
      reservation.reserve((long) (capacity - longs.length) * Long.BYTES);
      longs = new long[capacity];
    }
    return longs;
  }

  double[] doubles(int rows) {
    if (rows > doubles.length) {
      int capacity = Reservation.grownCapacity(doubles.length, rows);
      reservation.reserve((long) (capacity - doubles.length) * Double.BYTES);
      doubles = new double[capacity];
    }
    return doubles;
  }
}
