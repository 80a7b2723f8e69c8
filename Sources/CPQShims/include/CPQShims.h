#pragma once
// CPQShims: the libpq calls of `bench history`'s PostgreSQL store, loaded at run time.
//
// libpq.so.5 (Debian package libpq5) is opened with dlopen (CLibraryLoader) only when a
// `postgresql://` history database is opened, so building and running bench needs no PostgreSQL
// package. Nothing here includes libpq-fe.h: the functions are declared with FirstFrame's own
// types, which follow the C ABI of the libpq functions they call (a connection and a result are
// opaque pointers, statuses are ints). Everything is prefixed CPQShims_ (STYLE.md rule 5).
#include <stddef.h>

/// A connection (PGconn), opaque.
typedef struct CPQShims_Connection CPQShims_Connection;
/// A command's result (PGresult), opaque.
typedef struct CPQShims_Result CPQShims_Result;

/// The statuses this shim's callers test (libpq's own values).
enum {
  CPQShims_CONNECTION_OK = 0,   ///< ConnStatusType CONNECTION_OK
  CPQShims_PGRES_COMMAND_OK = 1,  ///< ExecStatusType PGRES_COMMAND_OK
  CPQShims_PGRES_TUPLES_OK = 2,   ///< ExecStatusType PGRES_TUPLES_OK
};

/// Opens `path` (e.g. `libpq.so.5`) with dlopen and, the first time one succeeds, resolves every
/// symbol this shim uses. Thread-safe. Returns 0 when libpq is usable, otherwise -1 with
/// dlerror's text in `message` (`messageSize` bytes).
int CPQShims_load(const char *path, char *message, size_t messageSize);

/// PQconnectdb(conninfo): a key=value string or a postgresql:// URI; never NULL but for out of
/// memory (check CPQShims_status, then CPQShims_finish it).
CPQShims_Connection *CPQShims_connect(const char *conninfo);
/// PQstatus(connection).
int CPQShims_status(const CPQShims_Connection *connection);
/// PQerrorMessage(connection): the last error's text, owned by the connection.
const char *CPQShims_errorMessage(const CPQShims_Connection *connection);
/// PQfinish(connection).
void CPQShims_finish(CPQShims_Connection *connection);
/// PQexec(connection, sql): one or more statements without parameters.
CPQShims_Result *CPQShims_exec(CPQShims_Connection *connection, const char *sql);
/// PQexecParams(connection, sql, count, NULL, values, NULL, NULL, 0): one statement with `count`
/// parameters $1…, each text (a NULL value is SQL NULL, types inferred by the server), the
/// result in text.
CPQShims_Result *CPQShims_execParams(CPQShims_Connection *connection, const char *sql, int count,
                                     const char *const *values);
/// PQresultStatus(result).
int CPQShims_resultStatus(const CPQShims_Result *result);
/// PQresultErrorMessage(result).
const char *CPQShims_resultErrorMessage(const CPQShims_Result *result);
/// PQresultErrorField(result, PG_DIAG_SQLSTATE): the five-character SQLSTATE, or NULL.
const char *CPQShims_resultSQLState(const CPQShims_Result *result);
/// PQntuples(result): the rows.
int CPQShims_rows(const CPQShims_Result *result);
/// PQnfields(result): the columns.
int CPQShims_columns(const CPQShims_Result *result);
/// PQgetisnull(result, row, column).
int CPQShims_isNull(const CPQShims_Result *result, int row, int column);
/// PQgetvalue(result, row, column): the value's text, owned by the result.
const char *CPQShims_value(const CPQShims_Result *result, int row, int column);
/// PQgetlength(result, row, column): its length in bytes.
int CPQShims_length(const CPQShims_Result *result, int row, int column);
/// PQclear(result).
void CPQShims_clear(CPQShims_Result *result);
