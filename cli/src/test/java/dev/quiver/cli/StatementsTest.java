package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementsTest {
  @Test
  void aStatementEndsAtASemicolonOutsideQuotesAndComments() {
    Statements statements = new Statements();
    assertThat(statements.add("select 1; select 'a;b',")).containsExactly("select 1");
    assertThat(statements.pending()).isEqualTo("select 'a;b',");
    assertThat(statements.add("  \"c;\" -- not the end;")).isEmpty();
    assertThat(statements.add("/* nor; this */ from t;"))
        .containsExactly("select 'a;b',\n  \"c;\" -- not the end;\n/* nor; this */ from t");
    assertThat(statements.pending()).isEmpty();
    assertThat(statements.add("select 'it''s;';;")).containsExactly("select 'it''s;'");
  }

  @Test
  void aBackslashLineIsAMetaCommandOnlyBetweenStatements() {
    Statements statements = new Statements();
    assertThat(statements.add("  \\d lineitem")).containsExactly("\\d lineitem");
    assertThat(statements.add("select")).isEmpty();
    assertThat(statements.add("\\d")).isEmpty();
    assertThat(statements.pending()).isEqualTo("select\n\\d");
  }

  @Test
  void completeTellsTheLineEditorWhetherToReadOnOrRun() {
    assertThat(Statements.complete("select 1")).isFalse();
    assertThat(Statements.complete("select 1;")).isTrue();
    assertThat(Statements.complete("select ';'")).isFalse();
    assertThat(Statements.complete("select 1;\nselect")).isFalse();
    assertThat(Statements.complete("\\q")).isTrue();
    assertThat(Statements.complete("")).isTrue();
  }
}
