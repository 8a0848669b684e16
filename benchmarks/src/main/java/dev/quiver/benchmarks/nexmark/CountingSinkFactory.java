package dev.quiver.benchmarks.nexmark;

import java.util.Set;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The table connector {@code 'connector' = 'quiver-count'}: Flink's blackhole, plus what a measured
 * run needs: each writer counts its rows, reports the wall clock of its end of input and, for each
 * watermark it receives, the latency of event time to the {@link NexmarkRun} named by option {@code
 * run}. Nothing per row but a counter increment.
 */
public final class CountingSinkFactory implements DynamicTableSinkFactory {
  public static final String IDENTIFIER = "quiver-count";

  static final ConfigOption<String> RUN = ConfigOptions.key("run").stringType().noDefaultValue();

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(RUN);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of();
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validate();
    return new TableSink(helper.getOptions().get(RUN));
  }

  private record TableSink(String run) implements DynamicTableSink {
    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
      return requestedMode; // every change counts as a row, as the blackhole takes every change
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
      return SinkV2Provider.of(new CountingSink(run));
    }

    @Override
    public DynamicTableSink copy() {
      return new TableSink(run);
    }

    @Override
    public String asSummaryString() {
      return "count rows of " + run;
    }
  }

  private record CountingSink(String run) implements Sink<RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
      return new Writer(NexmarkRun.get(run));
    }
  }

  private static final class Writer implements SinkWriter<RowData> {
    private final NexmarkRun run;
    private long rows;

    Writer(NexmarkRun run) {
      this.run = run;
    }

    @Override
    public void write(RowData element, Context context) {
      rows++;
    }

    @Override
    public void writeWatermark(Watermark watermark) {
      run.sinkWatermark(watermark.getTimestamp(), System.nanoTime());
    }

    @Override
    public void flush(boolean endOfInput) {
      if (endOfInput) {
        run.sinkEnded(System.nanoTime());
      }
    }

    @Override
    public void close() {
      run.sinkRows(rows);
      rows = 0;
    }
  }
}
