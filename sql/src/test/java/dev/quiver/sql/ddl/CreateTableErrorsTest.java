package dev.quiver.sql.ddl;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every mistake in a {@code CREATE TABLE} / {@code DROP TABLE} is one line naming where it is and
 * what was expected. A {@code ~} in a statement is a line break.
 */
class CreateTableErrorsTest {
  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
          CREATE TABLE t (~  id INT,~  ts TIMESTAMP(3)~  WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 4, column 3: expected ',' or ')' after column ts, found 'WATERMARK'
          CREATE TABLE t (id INT) \
            | SYNTAX_ERROR | line 1, column 24: expected WITH ('connector' = ...) after the columns of t, found the end of the statement
          CREATE TABLE t id INT \
            | SYNTAX_ERROR | line 1, column 16: expected '(' after the table name t, found 'id'
          CREATE TABLE (id INT) \
            | SYNTAX_ERROR | line 1, column 14: expected a table name, found '('
          CREATE TABLE IF EXISTS t (id INT) \
            | SYNTAX_ERROR | line 1, column 17: expected NOT, found 'EXISTS'
          CREATE TABLE t (id) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 19: expected the type of column id, found ')'
          CREATE TABLE t (id INT NOT) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 27: expected NULL, found ')'
          CREATE TABLE t (id INT, 'x' INT) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 25: expected a column name, WATERMARK or PRIMARY KEY, found string 'x'
          CREATE TABLE t (id INT,) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 24: expected a column name, WATERMARK or PRIMARY KEY, found ')'
          CREATE TABLE t (c VARCHAR(x)) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 27: expected a length, found 'x'
          CREATE TABLE t (c DECIMAL(10, 2) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 34: expected ',' or ')' after column c, found 'WITH'
          CREATE TABLE t (ts TIMESTAMP(3), WATERMARK ts AS ts) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 44: expected FOR, found 'ts'
          CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts ts) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 51: expected AS, found 'ts'
          CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - '5' SECOND) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 59: expected INTERVAL, found string '5'
          CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL 5 SECOND) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 68: expected a 'string' after INTERVAL (the delay, e.g. '5'), found '5'
          CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5') WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 71: expected an interval unit (SECOND, MINUTE, HOUR, DAY, MILLISECOND), found ')'
          CREATE TABLE t (id INT, PRIMARY KEY (id)) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 41: expected NOT ENFORCED after PRIMARY KEY (...): Flink and Quiver do not check keys
          CREATE TABLE t (id INT, PRIMARY KEY (id) NOT NULL) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 46: expected ENFORCED, found 'NULL'
          CREATE TABLE t (id INT) WITH 'connector' = 'kafka' \
            | SYNTAX_ERROR | line 1, column 30: expected '(' after WITH, found string 'connector'
          CREATE TABLE t (id INT) WITH () \
            | SYNTAX_ERROR | line 1, column 31: expected 'connector' = '...' in WITH (...), found ')'
          CREATE TABLE t (id INT) WITH (connector = 'kafka') \
            | SYNTAX_ERROR | line 1, column 31: expected a 'string' as an option key in WITH (...), found 'connector'
          CREATE TABLE t (id INT) WITH ('connector' 'kafka') \
            | SYNTAX_ERROR | line 1, column 43: expected '=' after the option key 'connector', found string 'kafka'
          CREATE TABLE t (id INT) WITH ('connector' = kafka) \
            | SYNTAX_ERROR | line 1, column 45: expected a 'string' as the value of 'connector', found 'kafka'
          CREATE TABLE t (id INT) WITH ('connector' = 'kafka' 'topic' = 'x') \
            | SYNTAX_ERROR | line 1, column 53: expected ',' or ')' after the option 'connector', found string 'topic'
          CREATE TABLE t (id INT) WITH ('connector' = 'kafka') x \
            | SYNTAX_ERROR | line 1, column 54: expected the end of the statement, found 'x'
          CREATE TABLE t (id INT) WITH ('connector' = 'kafka') ; SELECT 1 \
            | SYNTAX_ERROR | line 1, column 56: expected the end of the statement, found 'SELECT'
          CREATE TABLE t (id INT) WITH ('connector' = 'kafka~ \
            | SYNTAX_ERROR | line 1, column 45: the quote ' is never closed
          CREATE TABLE `t (id INT) \
            | SYNTAX_ERROR | line 1, column 14: the quote ` is never closed
          CREATE TABLE t (id INT) /* WITH \
            | SYNTAX_ERROR | line 1, column 25: the comment /* is never closed
          CREATE TABLE t (id INT) WITH ('connector' = 'kafka') ? \
            | SYNTAX_ERROR | line 1, column 54: expected the end of the statement, found '?'
          CREATE TABLE "" (id INT) \
            | SYNTAX_ERROR | line 1, column 14: an empty quoted identifier
          DROP TABLE IF t \
            | SYNTAX_ERROR | line 1, column 15: expected EXISTS, found 't'
          DROP TABLE t u \
            | SYNTAX_ERROR | line 1, column 14: expected the end of the statement, found 'u'
          CREATE TABLE t (id INT, ID BIGINT) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 25: the column ID is declared twice in t
          CREATE TABLE t (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 66: a table has one WATERMARK; t has two
          CREATE TABLE t (id INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 25: the WATERMARK column ts is not a column of t
          CREATE TABLE t (id INT,~  ts DATE,~  WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 3, column 3: the WATERMARK column ts is DATE; it must be a TIMESTAMP (or a BIGINT of milliseconds since the epoch)
          CREATE TABLE t (ts TIMESTAMP, WATERMARK FOR ts AS other - INTERVAL '1' SECOND) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 51: the watermark of ts must be ts - INTERVAL '...' UNIT, not an expression of other
          CREATE TABLE t (ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1' WEEK) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 69: unknown interval unit WEEK; use SECOND, MINUTE, HOUR, DAY or MILLISECOND
          CREATE TABLE t (ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 'five' SECOND) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 65: the interval 'five' is not a number
          CREATE TABLE t (ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '-1' SECOND) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 65: the interval '-1' SECOND is not a whole number of milliseconds of zero or more
          CREATE TABLE t (ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '0.5' MILLISECOND) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 65: the interval '0.5' MILLISECOND is not a whole number of milliseconds of zero or more
          CREATE TABLE t (ts TIMESTAMP(9)) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 30: TIMESTAMP(9) of column ts: Quiver's timestamps are microseconds, use TIMESTAMP(6) or less
          CREATE TABLE t (ts TIMESTAMP WITH TIME ZONE) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 20: TIMESTAMP WITH TIME ZONE of column ts is not supported; use TIMESTAMP or TIMESTAMP_LTZ (UTC values)
          CREATE TABLE t (m MAP<STRING, INT>) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 19: unknown or unsupported type MAP of column m; Quiver's types are BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), CHAR(n), VARCHAR(n), STRING, DATE, TIMESTAMP(p), TIMESTAMP_LTZ(p)
          CREATE TABLE t (d DECIMAL(40, 2)) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 19: DECIMAL(40, 2) needs 1 <= precision <= 38 and scale <= precision
          CREATE TABLE t (id INT, PRIMARY KEY (nope) NOT ENFORCED) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 38: the PRIMARY KEY column nope is not a column of t
          CREATE TABLE t (id INT, PRIMARY KEY (id) NOT ENFORCED, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 56: a table has one PRIMARY KEY; t has two
          CREATE TABLE t (PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 17: the table t declares no columns
          CREATE TABLE t (id INT) WITH ('connector' = 'kafka', 'connector' = 'filesystem') \
            | INVALID_QUERY | line 1, column 54: the option 'connector' is given twice
          CREATE TABLE t (id INT, x AS nope + 1) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 25: the computed column x AS nope + 1: Column 'nope' not found in any table (a computed column reads the physical and metadata columns of t: id)
          CREATE TABLE t (id INT, s STRING, x AS s * 2) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 35: the computed column x AS s * 2: Cannot apply '*' to arguments of type '<VARCHAR> * <INTEGER>'. Supported form(s): '<NUMERIC> * <NUMERIC>' (a computed column reads the physical and metadata columns of t: id, s)
          CREATE TABLE t (id INT, x AS count(*)) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 25: the computed column x AS count(*) is not a scalar expression of the row (an aggregate, a window or a subquery cannot compute a column)
          CREATE TABLE t (id INT, x AS (SELECT max(id) FROM t)) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 25: the computed column x AS (SELECT max(id) FROM t) is not a scalar expression of the row (an aggregate, a window or a subquery cannot compute a column)
          CREATE TABLE t (id INT, x AS id + 1, y AS x + 1) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 38: the computed column y AS x + 1: Column 'x' not found in any table (a computed column reads the physical and metadata columns of t: id)
          CREATE TABLE t (id INT, x AS , y INT) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 30: expected the expression of computed column x, found ','
          CREATE TABLE t (id INT, s AS CAST(id AS VARCHAR), WATERMARK FOR s AS s) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 51: the WATERMARK column s is VARCHAR; it must be a TIMESTAMP (or a BIGINT of milliseconds since the epoch)
          CREATE TABLE t (id INT, p INT METADATA FROM partition) WITH ('connector' = 'kafka') \
            | SYNTAX_ERROR | line 1, column 45: expected a 'string' after METADATA FROM (the metadata key, e.g. 'timestamp'), found 'partition'
          CREATE TABLE t (id INT, p AS id, P INT METADATA) WITH ('connector' = 'kafka') \
            | INVALID_QUERY | line 1, column 34: the column P is declared twice in t
          CREATE TABLE db.t (id INT) WITH ('connector' = 'kafka') \
            | UNSUPPORTED_FEATURE | line 1, column 16: qualified table names are not supported: Quiver has one catalog, name the table without 'db.'
          CREATE TABLE t AS SELECT 1 \
            | UNSUPPORTED_FEATURE | line 1, column 16: CREATE TABLE ... AS is not supported: declare the columns and WITH options of t
          """)
  void fails(String sql, ErrorCode code, String message) {
    assertThatThrownBy(() -> DdlParser.parse(sql.replace('~', '\n')))
        .isInstanceOf(QuiverException.class)
        .hasMessage("[" + code + "] " + message)
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(code);
  }
}
