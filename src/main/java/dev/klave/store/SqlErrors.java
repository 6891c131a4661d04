package dev.klave.store;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Reads what kind of failure an SQL exception is, for both drivers. */
final class SqlErrors {
    private SqlErrors() {}

    static boolean isUniqueViolation(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof SQLiteException sqlite) {
                SQLiteErrorCode code = sqlite.getResultCode();
                return code == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                        || code == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY;
            }
            if (e instanceof SQLException sql && "23505".equals(sql.getSQLState())) {
                return true;
            }
            if (e.getCause() == e) {
                break;
            }
        }
        return false;
    }

    /** SQLite's SQLITE_BUSY in any of its forms (the lock stayed taken past the busy timeout). */
    static boolean isBusy(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof SQLiteException sqlite) {
                return (sqlite.getResultCode().code & 0xff) == SQLiteErrorCode.SQLITE_BUSY.code;
            }
            if (e.getCause() == e) {
                break;
            }
        }
        return false;
    }

    static boolean isConnectionFailure(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof SQLTransientConnectionException) {
                return true;
            }
            if (e instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                // Class 08: connection exception; 57P01-03: the server is shutting down or gone.
                if (state.startsWith("08") || state.startsWith("57P")) {
                    return true;
                }
            }
            if (e.getCause() == e) {
                break;
            }
        }
        return false;
    }
}
