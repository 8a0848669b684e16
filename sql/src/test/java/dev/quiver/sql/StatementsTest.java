package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statements that are not queries fail right after parsing with "not supported: STATEMENT" and
 * {@link ErrorCode#UNSUPPORTED_FEATURE}, never with the validator's assertion or a syntax error.
 */
class StatementsTest {
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          create table x (a int)                                  | CREATE TABLE
          CREATE TABLE x AS SELECT n_name FROM nation             | CREATE TABLE
          create view v as select n_name from nation              | CREATE VIEW
          create or replace view v as select 1                    | CREATE VIEW
          insert into nation select * from nation                 | INSERT
          insert into nation (n_nationkey) values (1)             | INSERT
          update nation set n_name = 'x' where n_nationkey = 1    | UPDATE
          delete from nation where n_nationkey = 1                | DELETE
          merge into nation n using nation m on n.n_nationkey = m.n_nationkey \
            when matched then update set n_name = m.n_name        | MERGE
          drop table nation                                       | DROP TABLE
          drop view v                                             | DROP VIEW
          alter session set x = 1                                 | ALTER SESSION SET
          alter system reset x                                    | ALTER SYSTEM RESET
          set x = 1                                               | SET
          explain plan for select n_name from nation              | EXPLAIN PLAN FOR
          describe nation                                         | DESCRIBE
          create table x (a int);                                 | CREATE TABLE
          create materialized view m as select 1                  | CREATE MATERIALIZED VIEW
          drop table if exists nation                             | DROP TABLE
          truncate table nation                                   | TRUNCATE TABLE
          grant select on nation to someone                       | GRANT
          '-- a comment\n  DROP VIEW v'                           | DROP VIEW
          """)
  void statementIsNotSupported(String sql, String statement) {
    assertThatThrownBy(() -> planner.plan(sql, 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageStartingWith("[UNSUPPORTED_FEATURE] not supported: " + statement)
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.UNSUPPORTED_FEATURE);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          create table x (a int) with ('connector' = 'kafka') | CREATE TABLE
          drop table if exists nation                         | DROP TABLE
          """)
  void tableDdlPointsAtTheSession(String sql, String statement) {
    assertThatThrownBy(() -> planner.plan(sql, 2))
        .hasMessage(
            "[UNSUPPORTED_FEATURE] not supported: "
                + statement
                + " (use QuiverSession.execute or the CLI)");
  }

  @Test
  void otherDdlHasNoHint() {
    assertThatThrownBy(() -> planner.plan("drop view v", 2))
        .hasMessage("[UNSUPPORTED_FEATURE] not supported: DROP VIEW");
  }
}
