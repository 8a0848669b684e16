package dev.quiver.flink.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.formats.FileFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WatchedDirectoryEnumerator} without a cluster: only complete files of the format are
 * found, each once, handed to readers that ask; its checkpoint (through its serializer) makes a
 * restored enumerator hand out what was pending and never find a seen file again.
 */
class WatchedDirectoryEnumeratorTest {
  @TempDir Path dir;

  @Test
  void findsCompleteFilesOnceAndRemembersThemAcrossARestore() throws Throwable {
    Path a = Files.writeString(dir.resolve("a.csv"), "x\n1\n");
    Files.writeString(dir.resolve("_b.csv"), "x\n2\n"); // staged
    Files.writeString(dir.resolve(".c.csv"), "x\n3\n"); // hidden
    Files.writeString(dir.resolve("d.parquet"), "not csv"); // another format
    Files.createDirectories(dir.resolve("e.csv")); // not a regular file
    WatchedDirectoryState state;
    try (MockSplitEnumeratorContext<WatchedFileSplit> context =
        new MockSplitEnumeratorContext<>(2)) {
      WatchedDirectoryEnumerator enumerator = enumerator(context, List.of(), List.of());
      context.runPeriodicCallable(0);
      assertThat(context.getSplitsAssignmentSequence()).as("no reader asked yet").isEmpty();
      enumerator.handleSplitRequest(1, "localhost");
      assertThat(assigned(context)).containsExactly(Map.entry(1, a.toString()));

      Path b = Files.move(dir.resolve("_b.csv"), dir.resolve("b.csv")); // complete now
      context.runPeriodicCallable(0);
      context.runPeriodicCallable(0); // a second look finds nothing new
      state = roundTrip(enumerator.snapshotState(1));
      assertThat(state.seen()).containsExactly(a.toString(), b.toString());
      assertThat(state.pending())
          .extracting(split -> split.file().path())
          .containsExactly(b.toString());
    }
    try (MockSplitEnumeratorContext<WatchedFileSplit> context =
        new MockSplitEnumeratorContext<>(2)) {
      WatchedDirectoryEnumerator restored = enumerator(context, state.seen(), state.pending());
      context.runPeriodicCallable(0);
      restored.handleSplitRequest(0, "localhost");
      restored.handleSplitRequest(1, "localhost");
      // b was pending; a and b are never found again.
      assertThat(assigned(context)).containsExactly(Map.entry(0, dir.resolve("b.csv").toString()));
      Path f = Files.writeString(dir.resolve("f.csv"), "x\n6\n");
      context.runPeriodicCallable(0);
      assertThat(assigned(context))
          .containsExactly(
              Map.entry(0, dir.resolve("b.csv").toString()), Map.entry(1, f.toString()));
    }
  }

  private WatchedDirectoryEnumerator enumerator(
      MockSplitEnumeratorContext<WatchedFileSplit> context,
      List<String> seen,
      List<WatchedFileSplit> pending) {
    context.registerReader(new ReaderInfo(0, "localhost"));
    context.registerReader(new ReaderInfo(1, "localhost"));
    WatchedDirectoryEnumerator enumerator =
        new WatchedDirectoryEnumerator(
            context, dir, FileFormat.CSV, 100, new WatchedDirectoryState(seen, pending));
    enumerator.start();
    return enumerator;
  }

  private static WatchedDirectoryState roundTrip(WatchedDirectoryState state) throws Exception {
    WatchedDirectoryState.Serializer serializer = WatchedDirectoryState.Serializer.INSTANCE;
    return serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
  }

  // (reader, path) of every assignment so far, in order.
  private static List<Map.Entry<Integer, String>> assigned(
      MockSplitEnumeratorContext<WatchedFileSplit> context) {
    List<Map.Entry<Integer, String>> all = new ArrayList<>();
    for (SplitsAssignment<WatchedFileSplit> assignment : context.getSplitsAssignmentSequence()) {
      assignment
          .assignment()
          .forEach(
              (reader, splits) ->
                  splits.forEach(split -> all.add(Map.entry(reader, split.file().path()))));
    }
    return all;
  }
}
