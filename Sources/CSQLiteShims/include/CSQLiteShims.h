#pragma once
// CSQLiteShims: the SQLite calls of `bench history`'s SQLite store, loaded at run time.
//
// libsqlite3.so.0 (Debian package libsqlite3-0) is opened with dlopen only when a history
// database is opened, so the default build needs no SQLite package. Nothing here includes
// sqlite3.h: the functions are declared with FirstFrame's own types, which follow the C ABI of
// the SQLite functions they call (a connection and a statement are opaque pointers, row ids
// are 64-bit integers). Everything is prefixed CSQLiteShims_ (STYLE.md rule 5).
#include <stddef.h>
#include <stdint.h>

/// A database connection (sqlite3), opaque.
typedef struct CSQLiteShims_Database CSQLiteShims_Database;
/// A prepared statement (sqlite3_stmt), opaque.
typedef struct CSQLiteShims_Statement CSQLiteShims_Statement;

/// The result codes this shim's callers test (SQLite's own values).
enum {
  CSQLiteShims_OK = 0,     ///< SQLITE_OK
  CSQLiteShims_BUSY = 5,   ///< SQLITE_BUSY
  CSQLiteShims_ROW = 100,  ///< SQLITE_ROW
  CSQLiteShims_DONE = 101, ///< SQLITE_DONE
};

/// The column types (SQLite's fundamental datatypes).
enum {
  CSQLiteShims_INTEGER = 1,  ///< SQLITE_INTEGER
  CSQLiteShims_FLOAT = 2,    ///< SQLITE_FLOAT
  CSQLiteShims_TEXT = 3,     ///< SQLITE_TEXT
  CSQLiteShims_NULL = 5,     ///< SQLITE_NULL
};

/// Opens `path` (e.g. `libsqlite3.so.0`) with dlopen and, the first time one succeeds, resolves
/// every symbol this shim uses. Thread-safe. Returns 0 when SQLite is usable, otherwise -1 with
/// dlerror's text in `message` (`messageSize` bytes). A path that cannot be opened always fails,
/// even when another one was loaded before.
int CSQLiteShims_load(const char *path, char *message, size_t messageSize);

/// sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE (or SQLITE_OPEN_READONLY
/// when `readOnly`) | SQLITE_OPEN_FULLMUTEX, NULL): a result code; `*db` is set even on failure
/// (close it).
int CSQLiteShims_open(const char *path, int readOnly, CSQLiteShims_Database **db);
/// sqlite3_close_v2(db).
int CSQLiteShims_close(CSQLiteShims_Database *db);
/// sqlite3_errmsg(db): the last error's English text, owned by the connection.
const char *CSQLiteShims_errorMessage(CSQLiteShims_Database *db);
/// sqlite3_busy_timeout(db, milliseconds).
int CSQLiteShims_busyTimeout(CSQLiteShims_Database *db, int milliseconds);
/// sqlite3_exec(db, sql, NULL, NULL, NULL): runs statements that return no rows.
int CSQLiteShims_exec(CSQLiteShims_Database *db, const char *sql);
/// sqlite3_last_insert_rowid(db).
int64_t CSQLiteShims_lastInsertRowID(CSQLiteShims_Database *db);
/// sqlite3_changes(db): rows changed by the last statement.
int CSQLiteShims_changes(CSQLiteShims_Database *db);

/// sqlite3_prepare_v2(db, sql, -1, &statement, NULL).
int CSQLiteShims_prepare(CSQLiteShims_Database *db, const char *sql, CSQLiteShims_Statement **statement);
/// sqlite3_finalize(statement).
int CSQLiteShims_finalize(CSQLiteShims_Statement *statement);
/// sqlite3_step(statement): CSQLiteShims_ROW, CSQLiteShims_DONE or an error code.
int CSQLiteShims_step(CSQLiteShims_Statement *statement);
/// sqlite3_reset(statement) then sqlite3_clear_bindings(statement).
int CSQLiteShims_reset(CSQLiteShims_Statement *statement);
/// sqlite3_bind_int64(statement, index, value); `index` is 1-based.
int CSQLiteShims_bindInt64(CSQLiteShims_Statement *statement, int index, int64_t value);
/// sqlite3_bind_double(statement, index, value).
int CSQLiteShims_bindDouble(CSQLiteShims_Statement *statement, int index, double value);
/// sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT): SQLite copies the text.
int CSQLiteShims_bindText(CSQLiteShims_Statement *statement, int index, const char *text, int bytes);
/// sqlite3_bind_null(statement, index).
int CSQLiteShims_bindNull(CSQLiteShims_Statement *statement, int index);
/// sqlite3_column_type(statement, column); `column` is 0-based.
int CSQLiteShims_columnType(CSQLiteShims_Statement *statement, int column);
/// sqlite3_column_int64(statement, column).
int64_t CSQLiteShims_columnInt64(CSQLiteShims_Statement *statement, int column);
/// sqlite3_column_double(statement, column).
double CSQLiteShims_columnDouble(CSQLiteShims_Statement *statement, int column);
/// sqlite3_column_text(statement, column): UTF-8, valid until the next step, reset or finalize;
/// NULL for a NULL value.
const unsigned char *CSQLiteShims_columnText(CSQLiteShims_Statement *statement, int column);
/// sqlite3_column_bytes(statement, column): the text's length in bytes.
int CSQLiteShims_columnBytes(CSQLiteShims_Statement *statement, int column);
