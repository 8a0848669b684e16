package dev.quiver.state.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.spill.SpillStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB spill store: batched writes, lookups and deletes, key order, and its lifetime. */
class RocksSpillStoreTest {
  @TempDir Path tmp;

  @Test
  void putsLooksUpDeletesAndIteratesInKeyOrder() {
    try (FileSpillSpace space = new FileSpillSpace(List.of(tmp), "store test")) {
      try (SpillStore store = space.openStore("groups")) {
        int count = 20_000;
        byte[][] keys = new byte[count][];
        byte[][] values = new byte[count][];
        for (int i = 0; i < count; i++) {
          keys[i] = bytes("key-" + (count - i)); // written out of order
          values[i] = bytes("value-" + i);
        }
        store.putAll(keys, values, count);
        assertThat(space.spilledRows()).isEqualTo(count);

        byte[][] probe = {bytes("key-1"), bytes("missing"), bytes("key-20000")};
        byte[][] found = new byte[3][];
        store.getAll(probe, 3, found);
        assertThat(text(found[0])).isEqualTo("value-19999");
        assertThat(found[1]).isNull();
        assertThat(text(found[2])).isEqualTo("value-0");

        store.deleteAll(probe, 3);
        store.getAll(probe, 3, found);
        assertThat(found[0]).isNull();
        assertThat(found[2]).isNull();

        List<String> seen = new ArrayList<>();
        store.forEach((key, value) -> seen.add(text(key)));
        assertThat(seen).hasSize(count - 2).isSorted();
        assertThat(store.diskBytes()).isNotNegative();
      }
      assertThat(space.liveFiles()).as("a closed store is no longer tracked").isZero();
      assertThat(space.directories().get(0)).isEmptyDirectory();
    }
  }

  /** A store its operator never closed (a failed task) is closed and deleted with the space. */
  @Test
  void closingTheSpaceClosesAndDeletesItsStores() throws IOException {
    SpillStore store;
    try (FileSpillSpace space = new FileSpillSpace(List.of(tmp), "store test")) {
      store = space.openStore("groups");
      store.putAll(new byte[][] {bytes("k")}, new byte[][] {bytes("v")}, 1);
      assertThat(space.liveFiles()).isOne();
    }
    assertThatThrownBy(() -> store.getAll(new byte[][] {bytes("k")}, 1, new byte[1][]))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).isEmpty();
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
