import { describeError, type Logger } from "../logger";

export type RunningLoop = { stop(): Promise<void> };

/**
 * A background loop of an app server (the job worker, webhook delivery): one
 * pass, then a pause of `intervalMs`, none while a full batch suggests more is
 * waiting. A failed pass is logged and the loop goes on; `stop` waits for the
 * pass under way.
 */
export function startBackgroundLoop(options: {
  pass: () => Promise<number>;
  intervalMs: number;
  batchSize: number;
  log: Logger;
  failure: string;
}): RunningLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = options
      .pass()
      .catch((error) => {
        options.log.error(options.failure, describeError(error));
        return 0;
      })
      .then((count) => {
        if (!stopped) {
          timer = setTimeout(tick, count >= options.batchSize ? 0 : options.intervalMs).unref();
        }
      });
  };
  timer = setTimeout(tick, 0).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
