#define _GNU_SOURCE
#include "CSQLiteShims.h"

#include "CLibraryLoader.h"

typedef CSQLiteShims_Database Db;
typedef CSQLiteShims_Statement Stmt;

// SQLite's flags and its "copy the text" destructor (sqlite3.h's values; the header is not used).
#define OPEN_READONLY 0x00000001
#define OPEN_READWRITE 0x00000002
#define OPEN_CREATE 0x00000004
#define OPEN_FULLMUTEX 0x00010000
#define TRANSIENT ((void (*)(void *)) - 1)

// Every resolved function, by the SQLite name it was looked up under.
static struct {
  int loaded;
  int (*open_v2)(const char *, Db **, int, const char *);
  int (*close_v2)(Db *);
  const char *(*errmsg)(Db *);
  int (*busy_timeout)(Db *, int);
  int (*exec)(Db *, const char *, void *, void *, char **);
  int64_t (*last_insert_rowid)(Db *);
  int (*changes)(Db *);
  int (*prepare_v2)(Db *, const char *, int, Stmt **, const char **);
  int (*finalize)(Stmt *);
  int (*step)(Stmt *);
  int (*reset)(Stmt *);
  int (*clear_bindings)(Stmt *);
  int (*bind_int64)(Stmt *, int, int64_t);
  int (*bind_double)(Stmt *, int, double);
  int (*bind_text)(Stmt *, int, const char *, int, void (*)(void *));
  int (*bind_null)(Stmt *, int);
  int (*column_type)(Stmt *, int);
  int64_t (*column_int64)(Stmt *, int);
  double (*column_double)(Stmt *, int);
  const unsigned char *(*column_text)(Stmt *, int);
  int (*column_bytes)(Stmt *, int);
} sqlite;

// The table CLibraryLoader fills, by the SQLite name of each function.
#define SYMBOL(field, name) {name, (void **)&sqlite.field}
static const CLibraryLoader_Symbol symbols[] = {
    SYMBOL(open_v2, "sqlite3_open_v2"),
    SYMBOL(close_v2, "sqlite3_close_v2"),
    SYMBOL(errmsg, "sqlite3_errmsg"),
    SYMBOL(busy_timeout, "sqlite3_busy_timeout"),
    SYMBOL(exec, "sqlite3_exec"),
    SYMBOL(last_insert_rowid, "sqlite3_last_insert_rowid"),
    SYMBOL(changes, "sqlite3_changes"),
    SYMBOL(prepare_v2, "sqlite3_prepare_v2"),
    SYMBOL(finalize, "sqlite3_finalize"),
    SYMBOL(step, "sqlite3_step"),
    SYMBOL(reset, "sqlite3_reset"),
    SYMBOL(clear_bindings, "sqlite3_clear_bindings"),
    SYMBOL(bind_int64, "sqlite3_bind_int64"),
    SYMBOL(bind_double, "sqlite3_bind_double"),
    SYMBOL(bind_text, "sqlite3_bind_text"),
    SYMBOL(bind_null, "sqlite3_bind_null"),
    SYMBOL(column_type, "sqlite3_column_type"),
    SYMBOL(column_int64, "sqlite3_column_int64"),
    SYMBOL(column_double, "sqlite3_column_double"),
    SYMBOL(column_text, "sqlite3_column_text"),
    SYMBOL(column_bytes, "sqlite3_column_bytes"),
};

int CSQLiteShims_load(const char *path, char *message, size_t messageSize) {
  return CLibraryLoader_load(path, symbols, sizeof symbols / sizeof symbols[0], &sqlite.loaded, message,
                             messageSize);
}

int CSQLiteShims_open(const char *path, int readOnly, Db **db) {
  int flags = (readOnly ? OPEN_READONLY : OPEN_READWRITE | OPEN_CREATE) | OPEN_FULLMUTEX;
  return sqlite.open_v2(path, db, flags, NULL);
}
int CSQLiteShims_close(Db *db) { return sqlite.close_v2(db); }
const char *CSQLiteShims_errorMessage(Db *db) { return sqlite.errmsg(db); }
int CSQLiteShims_busyTimeout(Db *db, int milliseconds) { return sqlite.busy_timeout(db, milliseconds); }
int CSQLiteShims_exec(Db *db, const char *sql) { return sqlite.exec(db, sql, NULL, NULL, NULL); }
int64_t CSQLiteShims_lastInsertRowID(Db *db) { return sqlite.last_insert_rowid(db); }
int CSQLiteShims_changes(Db *db) { return sqlite.changes(db); }
int CSQLiteShims_prepare(Db *db, const char *sql, Stmt **statement) {
  return sqlite.prepare_v2(db, sql, -1, statement, NULL);
}
int CSQLiteShims_finalize(Stmt *statement) { return sqlite.finalize(statement); }
int CSQLiteShims_step(Stmt *statement) { return sqlite.step(statement); }
int CSQLiteShims_reset(Stmt *statement) {
  int status = sqlite.reset(statement);
  sqlite.clear_bindings(statement);
  return status;
}
int CSQLiteShims_bindInt64(Stmt *statement, int index, int64_t value) {
  return sqlite.bind_int64(statement, index, value);
}
int CSQLiteShims_bindDouble(Stmt *statement, int index, double value) {
  return sqlite.bind_double(statement, index, value);
}
int CSQLiteShims_bindText(Stmt *statement, int index, const char *text, int bytes) {
  return sqlite.bind_text(statement, index, text, bytes, TRANSIENT);
}
int CSQLiteShims_bindNull(Stmt *statement, int index) { return sqlite.bind_null(statement, index); }
int CSQLiteShims_columnType(Stmt *statement, int column) { return sqlite.column_type(statement, column); }
int64_t CSQLiteShims_columnInt64(Stmt *statement, int column) { return sqlite.column_int64(statement, column); }
double CSQLiteShims_columnDouble(Stmt *statement, int column) { return sqlite.column_double(statement, column); }
const unsigned char *CSQLiteShims_columnText(Stmt *statement, int column) {
  return sqlite.column_text(statement, column);
}
int CSQLiteShims_columnBytes(Stmt *statement, int column) { return sqlite.column_bytes(statement, column); }
