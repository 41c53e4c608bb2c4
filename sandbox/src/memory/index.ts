/** The in-memory engine: the port's twin for tests of logic that is not about containers. It isolates nothing; only tests may import it. */
export { InMemoryEngine } from "./in-memory-engine.js";
