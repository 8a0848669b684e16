package dev.quiver.benchmarks.nexmark;

import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkSchemas;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The table connector {@code 'connector' = 'quiver-nexmark'}: one kind of Nexmark events (option
 * {@code kind}: person, auction or bid) among the first {@code events} of the stream, read by
 * {@link NexmarkRowSource}. The table's columns must be the kind's ({@link NexmarkDdl} writes
 * them), and it declares its own watermark, as nexmark-flink's {@code datagen} table does.
 */
public final class NexmarkTableFactory implements DynamicTableSourceFactory {
  public static final String IDENTIFIER = "quiver-nexmark";

  static final ConfigOption<String> KIND = ConfigOptions.key("kind").stringType().noDefaultValue();
  static final ConfigOption<Long> EVENTS = ConfigOptions.key("events").longType().noDefaultValue();
  static final ConfigOption<Long> SEED =
      ConfigOptions.key("seed").longType().defaultValue(NexmarkConfig.DEFAULT.seed());
  static final ConfigOption<Long> EVENTS_PER_SECOND =
      ConfigOptions.key("events-per-second")
          .longType()
          .defaultValue(NexmarkConfig.DEFAULT_EVENTS_PER_SECOND);
  static final ConfigOption<Long> BASE_TIME =
      ConfigOptions.key("base-time-millis")
          .longType()
          .defaultValue(NexmarkConfig.DEFAULT_BASE_TIME_MILLIS);
  static final ConfigOption<Integer> BLOCK_EVENTS =
      ConfigOptions.key("block-events").intType().defaultValue(EventSplit.DEFAULT_BLOCK_EVENTS);
  static final ConfigOption<String> RUN = ConfigOptions.key("run").stringType().noDefaultValue();

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(KIND, EVENTS);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of(SEED, EVENTS_PER_SECOND, BASE_TIME, BLOCK_EVENTS, RUN);
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validate();
    ReadableConfig options = helper.getOptions();
    EventKind kind;
    try {
      kind = EventKind.valueOf(options.get(KIND).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ValidationException(
          "'kind' must be person, auction or bid, not '" + options.get(KIND) + "'", e);
    }
    RowType row = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<String> expected =
        NexmarkSchemas.of(kind).getFields().stream().map(Field::getName).toList();
    if (!row.getFieldNames().equals(expected)) {
      throw new ValidationException(
          "a Nexmark "
              + kind.tableName()
              + " table has the columns "
              + expected
              + ", not "
              + row.getFieldNames());
    }
    NexmarkConfig config =
        NexmarkConfig.DEFAULT
            .withSeed(options.get(SEED))
            .withEventsPerSecond(options.get(EVENTS_PER_SECOND))
            .withBaseTimeMillis(options.get(BASE_TIME));
    return new TableSource(
        new NexmarkRowSource(
            config,
            kind,
            options.get(EVENTS),
            options.get(BLOCK_EVENTS),
            options.getOptional(RUN).orElse(null)));
  }

  private record TableSource(NexmarkRowSource source) implements ScanTableSource {
    @Override
    public ChangelogMode getChangelogMode() {
      return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
      return SourceProvider.of(source);
    }

    @Override
    public DynamicTableSource copy() {
      return new TableSource(source);
    }

    @Override
    public String asSummaryString() {
      return "Nexmark " + source.kind().tableName();
    }
  }
}
