package dev.quiver.cli;

import dev.quiver.flink.session.QuiverSession;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver explain}: prints the stage graph a query would run, without running it; with {@code
 * --analyze} runs it and shows what every task of every stage did.
 */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Print the stages a query would run (their tasks, inputs and operators) without running it.",
      "The plan depends on the tables' statistics and on --parallelism. With --analyze the query",
      "runs (its rows are dropped) and each stage shows, per task, rows and batches in and out,",
      "bytes sent downstream, busy time and bytes spilled."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  quiver explain --catalog ~/.cache/quiver/tpch-sf0.1 -f q3.sql",
      "  quiver explain --format dot -t t=t.parquet \\",
      "      \"SELECT a, count(*) FROM t GROUP BY a\" | dot -Tsvg > plan.svg"
    })
final class ExplainCommand implements Callable<Integer> {
  /** The two renderings of a stage graph. */
  enum Format {
    TEXT,
    DOT
  }

  @Spec CommandSpec spec;

  @Mixin TableOptions tables;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text (stages as blocks, the default) or dot (Graphviz).")
  Format format;

  @Option(
      names = "--analyze",
      description = "Run the query and show, per stage and task, rows, batches, bytes and time.")
  boolean analyze;

  @Mixin SessionOptions session;

  @ArgGroup(exclusive = true, multiplicity = "1")
  QueryInput query;

  @Override
  @SuppressWarnings("try") // the guard is held for the query: it cancels the job on Ctrl-C
  public Integer call() {
    if (analyze && format == Format.DOT) {
      throw new ParameterException(spec.commandLine(), "--analyze prints text; drop --format dot");
    }
    String sql = query.read(spec.commandLine(), System.in);
    String plan;
    try (QuiverSession quiver = session.open();
        CancelOnExit exit = CancelOnExit.guard(quiver, spec.commandLine().getErr())) {
      tables.register(quiver);
      if (analyze) {
        plan = quiver.explainAnalyze(sql);
      } else {
        plan = format == Format.DOT ? quiver.explainDot(sql) : quiver.explain(sql);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(plan.endsWith("\n") ? plan : plan + "\n");
    out.flush();
    return 0;
  }
}
