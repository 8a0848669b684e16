package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import org.apache.flink.api.common.JobExecutionResult;

/**
 * What {@link QuiverSession#count} returns: the rows of a query that ran into a counting sink
 * inside its job, and the ended job's result (its id, net runtime and accumulators).
 *
 * @param rows the rows of the query's result
 * @param job the Flink job's result
 */
public record RowCount(long rows, JobExecutionResult job) {
  public RowCount {
    requireNonNull(job, "job is null");
  }
}
