/** Types of build-worker.mjs, for the tests and benchmarks that build the Worker bundle. */
export declare const WorkerNodeModules: string[];
export declare function buildWorker(outfile?: string): Promise<string>;
