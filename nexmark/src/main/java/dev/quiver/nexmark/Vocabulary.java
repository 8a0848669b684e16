package dev.quiver.nexmark;

import java.nio.charset.StandardCharsets;

/**
 * The constant values events pick from, as ASCII bytes: the spec's names, cities and states, the
 * 10,000 channels with their URLs, the four hot channels, and the pool of letters {@code extra}
 * values are cut from. Built once per JVM from a fixed seed (the same tables on every task and in
 * every run), so that an event only points into them.
 */
final class Vocabulary {
  static final int CHANNELS = 10_000;
  private static final int EXTRA_POOL_BYTES = 1 << 20;
  private static final long SEED = 0x6e65786d61726bL; // "nexmark"

  private static final String[] FIRST_NAMES = {
    "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"
  };
  private static final String[] LAST_NAMES = {
    "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"
  };
  private static final String[] CITIES = {
    "Phoenix",
    "Los Angeles",
    "San Francisco",
    "Boise",
    "Portland",
    "Bend",
    "Redmond",
    "Seattle",
    "Kent",
    "Cheyenne"
  };
  private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};

  static final Vocabulary INSTANCE = new Vocabulary();

  final byte[][] names; // first * LAST_NAMES.length + last
  final byte[][] cities = ascii(CITIES);
  final byte[][] states = ascii(STATES);
  final byte[][] hotChannels = ascii(HOT_CHANNELS);
  final byte[][] hotUrls = new byte[HOT_CHANNELS.length][];
  final byte[][] channels = new byte[CHANNELS][];
  final byte[][] channelUrls = new byte[CHANNELS][];
  final byte[] extraPool = new byte[EXTRA_POOL_BYTES];

  private Vocabulary() {
    names = new byte[FIRST_NAMES.length * LAST_NAMES.length][];
    for (int f = 0; f < FIRST_NAMES.length; f++) {
      for (int l = 0; l < LAST_NAMES.length; l++) {
        names[f * LAST_NAMES.length + l] = ascii(FIRST_NAMES[f] + " " + LAST_NAMES[l]);
      }
    }
    EventRandom random = new EventRandom();
    random.reset(SEED, 0);
    for (int i = 0; i < hotUrls.length; i++) {
      hotUrls[i] = ascii(baseUrl(random));
    }
    for (int i = 0; i < CHANNELS; i++) {
      channels[i] = ascii("channel-" + i);
      String url = baseUrl(random);
      if (random.nextInt(10) > 0) {
        url += "&channel_id=" + Math.abs(Integer.reverse(i));
      }
      channelUrls[i] = ascii(url);
    }
    for (int i = 0; i < extraPool.length; i++) {
      extraPool[i] = (byte) ('a' + random.nextInt(26));
    }
  }

  int firstNames() {
    return FIRST_NAMES.length;
  }

  int lastNames() {
    return LAST_NAMES.length;
  }

  private static String baseUrl(EventRandom random) {
    byte[] word = new byte[8];
    StringBuilder url = new StringBuilder("https://www.nexmark.com/");
    for (int i = 0; i < 3; i++) {
      int length = Words.write(random, word, 0, 5, (byte) '_');
      url.append(new String(word, 0, length, StandardCharsets.US_ASCII)).append('/');
    }
    return url.append("item.htm?query=1").toString();
  }

  private static byte[][] ascii(String[] values) {
    byte[][] bytes = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = ascii(values[i]);
    }
    return bytes;
  }

  private static byte[] ascii(String value) {
    return value.getBytes(StandardCharsets.US_ASCII);
  }
}
