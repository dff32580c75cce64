"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SerialisedSqliteQueryRunner = exports.DatabaseBusyError = exports.DEFAULT_GATE_TIMEOUT_MS = void 0;
exports.serialiseSqlite = serialiseSqlite;
const async_mutex_1 = require("async-mutex");
const SqliteDriver_1 = require("typeorm/driver/sqlite/SqliteDriver");
const SqliteQueryRunner_1 = require("typeorm/driver/sqlite/SqliteQueryRunner");
/** How long a query waits for another request's transaction before it gives up (a stuck transaction, not load). */
exports.DEFAULT_GATE_TIMEOUT_MS = 30_000;
/** Thrown when the gate could not be had in time; answered 503 by the exception filter. */
class DatabaseBusyError extends Error {
    constructor() {
        super('The database is busy. Please try again.');
        this.name = 'DatabaseBusyError';
    }
}
exports.DatabaseBusyError = DatabaseBusyError;
/**
 * A query runner of its own for every caller, all on the driver's one SQLite connection, with one gate:
 * a transaction holds the gate from BEGIN to COMMIT/ROLLBACK, and any query outside a transaction waits
 * for the gate and holds it while it runs. So a request's query can never land inside another request's
 * open transaction, and two transactions can never nest as savepoints of each other (TypeORM's SQLite
 * driver otherwise shares one query runner for the whole data source: typeorm/typeorm#1884, #307).
 */
class SerialisedSqliteQueryRunner extends SqliteQueryRunner_1.SqliteQueryRunner {
    gate;
    onWait;
    releaseGate;
    constructor(driver, gate, onWait) {
        super(driver);
        this.gate = gate;
        this.onWait = onWait;
    }
    /** True while this runner holds the gate (inside its own transaction). */
    get holdsGate() {
        return this.releaseGate !== undefined;
    }
    async acquire() {
        const started = process.hrtime.bigint();
        try {
            return await this.gate.acquire();
        }
        catch (err) {
            if (err === async_mutex_1.E_TIMEOUT)
                throw new DatabaseBusyError();
            throw err;
        }
        finally {
            this.onWait?.(Number(process.hrtime.bigint() - started) / 1e9);
        }
    }
    openGate() {
        const release = this.releaseGate;
        this.releaseGate = undefined;
        release?.();
    }
    async query(query, parameters, useStructuredResult = false) {
        if (this.holdsGate)
            return super.query(query, parameters, useStructuredResult);
        const release = await this.acquire();
        try {
            return await super.query(query, parameters, useStructuredResult);
        }
        finally {
            release();
        }
    }
    async startTransaction(isolationLevel) {
        const outermost = !this.isTransactionActive;
        if (outermost)
            this.releaseGate = await this.acquire();
        try {
            await super.startTransaction(isolationLevel);
        }
        catch (err) {
            if (outermost)
                this.reset();
            throw err;
        }
    }
    async commitTransaction() {
        await super.commitTransaction();
        // A failed COMMIT keeps the gate: the caller rolls back next (TypeORM always does).
        if (!this.isTransactionActive)
            this.openGate();
    }
    async rollbackTransaction() {
        const outermost = this.transactionDepth <= 1;
        try {
            await super.rollbackTransaction();
        }
        finally {
            // Even a failed ROLLBACK ends the transaction as far as SQLite is concerned (it had been rolled back).
            if (outermost)
                this.reset();
        }
    }
    /** A runner released with its transaction still open (a bug elsewhere) must not keep the gate forever. */
    async release() {
        if (this.isTransactionActive) {
            try {
                await super.rollbackTransaction();
            }
            catch {
                /* the transaction is gone either way */
            }
            this.reset();
        }
        return super.release();
    }
    reset() {
        this.isTransactionActive = false;
        this.transactionDepth = 0;
        this.openGate();
    }
}
exports.SerialisedSqliteQueryRunner = SerialisedSqliteQueryRunner;
/**
 * Makes every query runner of a SQLite data source a SerialisedSqliteQueryRunner sharing one gate. Call
 * before initialize(), so that migrations already go through it. Other drivers are left alone
 * (PostgreSQL gives each transaction its own pooled connection).
 */
function serialiseSqlite(dataSource, options = {}) {
    const driver = dataSource.driver;
    if (!(driver instanceof SqliteDriver_1.SqliteDriver))
        return dataSource;
    const gate = (0, async_mutex_1.withTimeout)(new async_mutex_1.Mutex(), options.timeoutMs ?? exports.DEFAULT_GATE_TIMEOUT_MS);
    driver.createQueryRunner = (_mode) => new SerialisedSqliteQueryRunner(driver, gate, options.onWait);
    return dataSource;
}
//# sourceMappingURL=sqlite-serialiser.js.map