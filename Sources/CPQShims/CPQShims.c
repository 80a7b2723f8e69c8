#include "CPQShims.h"

#include "CLibraryLoader.h"

typedef CPQShims_Connection Conn;
typedef CPQShims_Result Res;

// libpq's PG_DIAG_SQLSTATE (postgres_ext.h's value; the header is not used).
#define DIAG_SQLSTATE 'C'

// Every resolved function, by the libpq name it was looked up under.
static struct {
  int loaded;
  Conn *(*connectdb)(const char *);
  int (*status)(const Conn *);
  const char *(*errorMessage)(const Conn *);
  void (*finish)(Conn *);
  Res *(*exec)(Conn *, const char *);
  Res *(*execParams)(Conn *, const char *, int, const unsigned int *, const char *const *, const int *,
                     const int *, int);
  int (*resultStatus)(const Res *);
  const char *(*resultErrorMessage)(const Res *);
  const char *(*resultErrorField)(const Res *, int);
  int (*ntuples)(const Res *);
  int (*nfields)(const Res *);
  int (*getisnull)(const Res *, int, int);
  const char *(*getvalue)(const Res *, int, int);
  int (*getlength)(const Res *, int, int);
  void (*clear)(Res *);
} pq;

// The table CLibraryLoader fills, by the libpq name of each function.
#define SYMBOL(field, name) {name, (void **)&pq.field}
static const CLibraryLoader_Symbol symbols[] = {
    SYMBOL(connectdb, "PQconnectdb"),
    SYMBOL(status, "PQstatus"),
    SYMBOL(errorMessage, "PQerrorMessage"),
    SYMBOL(finish, "PQfinish"),
    SYMBOL(exec, "PQexec"),
    SYMBOL(execParams, "PQexecParams"),
    SYMBOL(resultStatus, "PQresultStatus"),
    SYMBOL(resultErrorMessage, "PQresultErrorMessage"),
    SYMBOL(resultErrorField, "PQresultErrorField"),
    SYMBOL(ntuples, "PQntuples"),
    SYMBOL(nfields, "PQnfields"),
    SYMBOL(getisnull, "PQgetisnull"),
    SYMBOL(getvalue, "PQgetvalue"),
    SYMBOL(getlength, "PQgetlength"),
    SYMBOL(clear, "PQclear"),
};

int CPQShims_load(const char *path, char *message, size_t messageSize) {
  return CLibraryLoader_load(path, symbols, sizeof symbols / sizeof symbols[0], &pq.loaded, message, messageSize);
}

Conn *CPQShims_connect(const char *conninfo) { return pq.connectdb(conninfo); }
int CPQShims_status(const Conn *connection) { return pq.status(connection); }
const char *CPQShims_errorMessage(const Conn *connection) { return pq.errorMessage(connection); }
void CPQShims_finish(Conn *connection) { pq.finish(connection); }
Res *CPQShims_exec(Conn *connection, const char *sql) { return pq.exec(connection, sql); }
Res *CPQShims_execParams(Conn *connection, const char *sql, int count, const char *const *values) {
  return pq.execParams(connection, sql, count, NULL, values, NULL, NULL, 0);
}
int CPQShims_resultStatus(const Res *result) { return pq.resultStatus(result); }
const char *CPQShims_resultErrorMessage(const Res *result) { return pq.resultErrorMessage(result); }
const char *CPQShims_resultSQLState(const Res *result) { return pq.resultErrorField(result, DIAG_SQLSTATE); }
int CPQShims_rows(const Res *result) { return pq.ntuples(result); }
int CPQShims_columns(const Res *result) { return pq.nfields(result); }
int CPQShims_isNull(const Res *result, int row, int column) { return pq.getisnull(result, row, column); }
const char *CPQShims_value(const Res *result, int row, int column) { return pq.getvalue(result, row, column); }
int CPQShims_length(const Res *result, int row, int column) { return pq.getlength(result, row, column); }
void CPQShims_clear(Res *result) { pq.clear(result); }
