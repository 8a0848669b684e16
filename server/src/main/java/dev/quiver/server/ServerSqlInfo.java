package dev.quiver.server;

import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.flight.sql.impl.FlightSql.SupportedSqlGrammar;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What {@code GetSqlInfo} says about the server, the fields JDBC's {@code DatabaseMetaData} and SQL
 * tools ask for: product name and version, read-only, no transactions, cancellation supported,
 * identifiers quoted with double quotes and resolved ignoring case (Quiver's planner: Calcite with
 * case-insensitive names kept as written).
 */
final class ServerSqlInfo {
  static final String NAME = "Quiver";

  private ServerSqlInfo() {}

  static SqlInfoBuilder builder() {
    return new SqlInfoBuilder()
        .withFlightSqlServerName(NAME)
        .withFlightSqlServerVersion(version(ServerSqlInfo.class, "development"))
        .withFlightSqlServerArrowVersion(version(VectorSchemaRoot.class, "unknown"))
        .withFlightSqlServerReadOnly(true)
        .withFlightSqlServerSql(true)
        .withFlightSqlServerSubstrait(false)
        .withFlightSqlServerTransaction(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
        .withFlightSqlServerCancel(true)
        .withFlightSqlServerBulkIngestion(false)
        .withSqlIdentifierQuoteChar("\"")
        .withSqlIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
        .withSqlQuotedIdentifierCase(
            SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
        .withSqlSchemaTerm("schema")
        .withSqlCatalogTerm("catalog")
        .withSqlSearchStringEscape("\\")
        .withSqlDdlCatalog(false)
        .withSqlDdlSchema(false)
        .withSqlDdlTable(false)
        .withSqlAllTablesAreSelectable(true)
        .withSqlTransactionsSupported(false)
        .withSqlSupportsColumnAliasing(true)
        .withSqlNullPlusNullIsNull(true)
        .withSqlSupportsTableCorrelationNames(true)
        .withSqlSupportsExpressionsInOrderBy(true)
        .withSqlCorrelatedSubqueriesSupported(true)
        .withSqlSupportedGrammar(SupportedSqlGrammar.SQL_CORE_GRAMMAR);
  }

  /** The implementation version in {@code type}'s jar manifest, or {@code otherwise}. */
  private static String version(Class<?> type, String otherwise) {
    String version = type.getPackage().getImplementationVersion();
    return version == null ? otherwise : version;
  }
}
