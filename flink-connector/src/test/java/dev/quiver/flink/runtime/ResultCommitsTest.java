package dev.quiver.flink.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which result frames a reader sees when Flink restarts result tasks or the collect sink. */
class ResultCommitsTest {
  private static ResultFrame data(int task, int attempt, long seq) {
    return new ResultFrame(false, task, attempt, seq, new byte[0]);
  }

  private static ResultFrame end(int task, int attempt, long count) {
    return new ResultFrame(true, task, attempt, count, new byte[0]);
  }

  private static List<String> visible(ResultCommits commits) {
    List<String> seen = new ArrayList<>();
    for (ResultFrame f = commits.poll(); f != null; f = commits.poll()) {
      seen.add(f.task() + "/" + f.attempt() + "/" + f.seq());
    }
    return seen;
  }

  @Test
  void withoutRestartsEveryDataFrameIsVisibleAtOnce() {
    ResultCommits commits = new ResultCommits(false);
    commits.accept(data(0, 0, 0));
    commits.accept(data(1, 0, 0));
    assertThat(visible(commits)).containsExactly("0/0/0", "1/0/0");
    commits.accept(end(0, 0, 1));
    assertThat(visible(commits)).isEmpty();
  }

  @Test
  void aTasksOutputIsVisibleWhenItsAttemptHasSentAllOfIt() {
    ResultCommits commits = new ResultCommits(true);
    commits.accept(data(0, 0, 0));
    commits.accept(data(1, 0, 0));
    commits.accept(data(0, 0, 1));
    assertThat(visible(commits)).isEmpty();
    commits.accept(end(0, 0, 2));
    assertThat(visible(commits)).containsExactly("0/0/0", "0/0/1");
    commits.accept(end(1, 0, 1));
    assertThat(visible(commits)).containsExactly("1/0/0");
    commits.checkComplete();
  }

  @Test
  void aNewAttemptReplacesWhatTheFailedOneSent() {
    ResultCommits commits = new ResultCommits(true);
    commits.accept(data(0, 0, 0));
    commits.accept(data(0, 0, 1));
    commits.accept(data(0, 1, 0)); // task 0 restarted
    commits.accept(data(0, 0, 2)); // a late frame of the failed attempt
    commits.accept(end(0, 1, 1));
    assertThat(visible(commits)).containsExactly("0/1/0");
  }

  @Test
  void aRestartedSinkReplayingTheSameAttemptAddsNothing() {
    ResultCommits commits = new ResultCommits(true);
    commits.accept(data(0, 0, 0));
    commits.accept(data(0, 0, 1));
    commits.accept(end(1, 0, 0)); // task 1 sent nothing, and is done
    commits.accept(data(0, 0, 0)); // the sink restarted and reads everything again
    commits.accept(end(1, 0, 0));
    commits.accept(data(0, 0, 1));
    commits.accept(data(0, 0, 2));
    commits.accept(end(0, 0, 3));
    assertThat(visible(commits)).containsExactly("0/0/0", "0/0/1", "0/0/2");
    commits.checkComplete();
  }

  @Test
  void aCommittedTaskRunningAgainAddsNothing() {
    ResultCommits commits = new ResultCommits(true);
    commits.accept(data(0, 0, 0));
    commits.accept(end(0, 0, 1));
    commits.accept(data(0, 1, 0));
    commits.accept(end(0, 1, 1));
    assertThat(visible(commits)).containsExactly("0/0/0");
  }

  @Test
  void aGapOrAMissingEndIsABug() {
    ResultCommits gap = new ResultCommits(true);
    gap.accept(data(0, 0, 0));
    assertThatThrownBy(() -> gap.accept(data(0, 0, 2))).hasMessageContaining("lost");
    ResultCommits open = new ResultCommits(true);
    open.accept(data(3, 0, 0));
    assertThatThrownBy(open::checkComplete).hasMessageContaining("[3]");
  }
}
