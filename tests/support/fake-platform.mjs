// Preloaded with `node --import` by tests that play a Mac or a Windows laptop: the harness
// reads the host's platform in one place, sandbox/src/docker/host-platform.ts, and only a
// read from that file (or its compiled host-platform.js, which the CLI runs) sees
// EVOLVE_TEST_PLATFORM. Every other reader (esbuild, tsx, the Docker client) still sees the
// real platform, so nothing but the harness's own decision is faked.
const fake = process.env.EVOLVE_TEST_PLATFORM;
const real = process.platform;
if (fake) {
  Object.defineProperty(process, "platform", {
    configurable: true,
    get() {
      return /host-platform\.[jt]s\b/.test(new Error().stack ?? "") ? fake : real;
    },
  });
}
