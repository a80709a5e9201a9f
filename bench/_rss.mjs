// Preloaded into each measured process (`node --import`): reports its peak memory on exit, on stderr.
process.on('exit', () => process.stderr.write(`\n@@maxrss ${process.resourceUsage().maxRSS}\n`));
