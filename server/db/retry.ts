import { DEADLOCK_DETECTED, SERIALIZATION_FAILURE, sqlState } from "./sql-state";

/**
 * Runs a whole transaction again when PostgreSQL ended it to break a cycle
 * of locks (40P01) or a serialization failure (40001): nothing of it was
 * written, and run again it reads what the other side committed (issue 38,
 * §4.1: a schedule change and a booking at the same time). `work` must open
 * its own transaction, so a retry starts from scratch; anything else it
 * throws is thrown as it is.
 */
export async function retryTransaction<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const state = sqlState(error);
      const transient = state === DEADLOCK_DETECTED || state === SERIALIZATION_FAILURE;
      if (!transient || attempt >= attempts) throw error;
    }
  }
}
