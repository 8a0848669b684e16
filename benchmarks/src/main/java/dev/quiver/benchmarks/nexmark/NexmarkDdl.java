package dev.quiver.benchmarks.nexmark;

import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkSchemas;
import java.time.Duration;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The Flink SQL declaration of one kind's table over {@link NexmarkTableFactory}: the columns of
 * {@link NexmarkSchemas} under their Nexmark names, and nexmark-flink's watermark, {@code WATERMARK
 * FOR dateTime AS dateTime - INTERVAL '4' SECOND}.
 *
 * <pre>
 *   CREATE TEMPORARY TABLE bid (auction BIGINT, ..., `dateTime` TIMESTAMP(3), extra VARCHAR,
 *       WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND)
 *   WITH ('connector' = 'quiver-nexmark', 'kind' = 'bid', 'events' = '10000000', ...)
 * </pre>
 */
final class NexmarkDdl {
  private NexmarkDdl() {}

  static String table(
      EventKind kind, long events, NexmarkConfig config, Duration watermarkDelay, String run) {
    StringBuilder ddl = new StringBuilder("CREATE TEMPORARY TABLE ").append(kind.tableName());
    ddl.append(" (\n");
    for (Field field : NexmarkSchemas.of(kind).getFields()) {
      ddl.append("  `").append(field.getName()).append("` ").append(type(field)).append(",\n");
    }
    ddl.append("  WATERMARK FOR `")
        .append(NexmarkSchemas.DATE_TIME)
        .append("` AS `")
        .append(NexmarkSchemas.DATE_TIME)
        .append("` - INTERVAL '")
        .append(seconds(watermarkDelay.toMillis()))
        .append("' SECOND\n) WITH (\n");
    option(ddl, "connector", NexmarkTableFactory.IDENTIFIER).append(",\n");
    option(ddl, NexmarkTableFactory.KIND.key(), kind.tableName()).append(",\n");
    option(ddl, NexmarkTableFactory.EVENTS.key(), Long.toString(events)).append(",\n");
    option(ddl, NexmarkTableFactory.SEED.key(), Long.toString(config.seed())).append(",\n");
    option(
            ddl,
            NexmarkTableFactory.EVENTS_PER_SECOND.key(),
            Long.toString(config.eventsPerSecond()))
        .append(",\n");
    option(ddl, NexmarkTableFactory.BASE_TIME.key(), Long.toString(config.baseTimeMillis()));
    if (run != null) {
      ddl.append(",\n");
      option(ddl, NexmarkTableFactory.RUN.key(), run);
    }
    return ddl.append("\n)").toString();
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0
        ? Long.toString(millis / 1000)
        : String.format(java.util.Locale.ROOT, "%d.%03d", millis / 1000, millis % 1000);
  }

  private static StringBuilder option(StringBuilder ddl, String key, String value) {
    return ddl.append("  '").append(key).append("' = '").append(value).append('\'');
  }

  private static String type(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Int) {
      return "BIGINT";
    }
    if (type instanceof ArrowType.Timestamp) {
      return "TIMESTAMP(3)";
    }
    return "VARCHAR";
  }
}
