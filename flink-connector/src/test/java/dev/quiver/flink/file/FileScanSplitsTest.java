package dev.quiver.flink.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.FileVersion;
import dev.quiver.formats.ScanSpec;
import dev.quiver.formats.ScanTables;
import dev.quiver.formats.TestFiles;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The enumerator, the serializers and the reader of {@link FileScanSource}, without a cluster. */
@ExtendWith(ArrowLeakCheck.class)
class FileScanSplitsTest {
  private static final FileSplit A = new FileSplit("/t/a.parquet", FileFormat.PARQUET, 10, 5);
  private static final FileSplit B = new FileSplit("/t/b.csv", FileFormat.CSV, 20, -1);
  private static final FileSplit C = new FileSplit("/t/ç ü.arrow", FileFormat.ARROW_IPC, 30, 7);

  @TempDir Path dir;

  @Test
  void eachReaderGetsExactlyItsPlannedSplitsWhateverTheRegistrationOrder() throws Exception {
    List<FileScanSplit> splits = splits(List.of(List.of(A, B), List.of(), List.of(C)));
    try (MockSplitEnumeratorContext<FileScanSplit> context = new MockSplitEnumeratorContext<>(3)) {
      FileScanEnumerator enumerator = new FileScanEnumerator(context, 3, "scan", splits);
      enumerator.start();
      for (int task : new int[] {2, 0, 1}) {
        context.registerReader(new ReaderInfo(task, "localhost"));
        enumerator.addReader(task);
        assertThat(context.hasNoMoreSplits(task)).isTrue();
      }
      assertThat(assigned(context)).isEqualTo(Map.of(0, List.of(A, B), 2, List.of(C)));

      // A failed reader's splits go back to its task and come back when it registers again.
      context.unregisterReader(0);
      enumerator.addSplitsBack(List.of(splits.get(1).advance(3)), 0);
      FileScanEnumeratorState state = roundTrip(enumerator.snapshotState(1));
      assertThat(state.unassigned()).containsExactly(splits.get(1).advance(3));
      FileScanEnumerator restored = new FileScanEnumerator(context, 3, "scan", state.unassigned());
      context.registerReader(new ReaderInfo(0, "localhost"));
      restored.addReader(0);
      List<SplitsAssignment<FileScanSplit>> sequence = context.getSplitsAssignmentSequence();
      assertThat(sequence.get(sequence.size() - 1).assignment())
          .isEqualTo(Map.of(0, List.of(splits.get(1).advance(3))));
      assertThatThrownBy(() -> restored.addSplitsBack(List.of(splits.get(2)), 1))
          .hasMessageContaining("of another task");
    }
  }

  @Test
  void aParallelismOtherThanPlannedFails() throws Exception {
    try (MockSplitEnumeratorContext<FileScanSplit> context = new MockSplitEnumeratorContext<>(2)) {
      FileScanEnumerator enumerator = new FileScanEnumerator(context, 3, "scan t", List.of());
      assertThatThrownBy(enumerator::start)
          .hasMessageContaining("scan t was planned for 3 tasks but runs with parallelism 2");
    }
  }

  @Test
  void splitsSurviveSerialization() throws Exception {
    FileSplit versioned =
        new FileSplit("/t/d.parquet", FileFormat.PARQUET, 40, 9, new FileVersion(40, 1234567));
    for (FileScanSplit split : splits(List.of(List.of(A), List.of(B, C, versioned)))) {
      FileScanSplit moved = split.advance(12345);
      byte[] bytes = FileScanSplitSerializer.INSTANCE.serialize(moved);
      int version = FileScanSplitSerializer.INSTANCE.getVersion();
      assertThat(FileScanSplitSerializer.INSTANCE.deserialize(version, bytes)).isEqualTo(moved);
    }
    assertThatThrownBy(() -> FileScanSplitSerializer.INSTANCE.deserialize(3, new byte[0]))
        .hasMessageContaining("version 3");
  }

  @Test
  void aRestoredReaderSkipsTheRowsItAlreadyEmitted(BufferAllocator allocator) {
    ScanTables.write(dir, FileFormat.PARQUET, List.of(2500), allocator);
    FileTable table =
        FileTable.open(dir.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());
    ScanSpec scan = table.scan(List.of("id", "utf8"), Optional.empty()).withBatchRows(700);
    List<List<Object>> all = TestFiles.read(table, scan, allocator);
    FileSplit file = table.splits(Optional.empty()).get(0);

    FileScanReader reader = new FileScanReader(scan, scan.outputSchema(), 0, "scan", null);
    Rows out = new Rows();
    try {
      reader.start();
      reader.addSplits(List.of(new FileScanSplit(0, 0, file, 1000)));
      reader.notifyNoMoreSplits();
      assertThat(reader.pollNext(out)).isEqualTo(InputStatus.MORE_AVAILABLE);
      assertThat(reader.snapshotState(1))
          .containsExactly(new FileScanSplit(0, 0, file, 1000 + out.rows.size()));
      while (reader.pollNext(out) == InputStatus.MORE_AVAILABLE) {
        assertThat(out.tasks).containsOnly(0);
      }
      assertThat(reader.snapshotState(2)).isEmpty();
      assertThatThrownBy(() -> reader.addSplits(List.of(new FileScanSplit(1, 0, file, 0))))
          .hasMessageContaining("planned for task 1");
    } finally {
      reader.close();
    }
    assertThat(out.rows).isEqualTo(all.subList(1000, all.size()));
  }

  private static List<FileScanSplit> splits(List<List<FileSplit>> plan) {
    List<FileScanSplit> splits = new ArrayList<>();
    for (int t = 0; t < plan.size(); t++) {
      for (int i = 0; i < plan.get(t).size(); i++) {
        splits.add(new FileScanSplit(t, i, plan.get(t).get(i), 0));
      }
    }
    return splits;
  }

  private static Map<Integer, List<FileSplit>> assigned(
      MockSplitEnumeratorContext<FileScanSplit> context) {
    Map<Integer, List<FileSplit>> files = new TreeMap<>();
    for (SplitsAssignment<FileScanSplit> assignment : context.getSplitsAssignmentSequence()) {
      assignment
          .assignment()
          .forEach(
              (task, splits) ->
                  splits.forEach(
                      s -> files.computeIfAbsent(task, t -> new ArrayList<>()).add(s.file())));
    }
    return files;
  }

  private static FileScanEnumeratorState roundTrip(FileScanEnumeratorState state) throws Exception {
    FileScanEnumeratorState.Serializer serializer = FileScanEnumeratorState.Serializer.INSTANCE;
    return serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
  }

  /** Collects the rows and producing tasks of emitted records (records stay the reader's). */
  private static final class Rows implements ReaderOutput<BatchRecord> {
    final List<List<Object>> rows = new ArrayList<>();
    final List<Integer> tasks = new ArrayList<>();

    @Override
    public void collect(BatchRecord record) {
      rows.addAll(BatchRows.rows(record.batch()));
      tasks.add(record.partition());
    }

    @Override
    public void collect(BatchRecord record, long timestamp) {
      collect(record);
    }

    @Override
    public void emitWatermark(Watermark watermark) {}

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    @Override
    public SourceOutput<BatchRecord> createOutputForSplit(String splitId) {
      return this;
    }

    @Override
    public void releaseOutputForSplit(String splitId) {}
  }
}
