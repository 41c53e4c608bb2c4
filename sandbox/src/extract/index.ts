/** Taking a workspace out of a container: a tar, or a runner's tree message, checked whole (no links, no escaping paths, caps) before a byte is written. */
export { extractSafely, planExtraction } from "./safe-extract.js";
export { extractTree } from "./tree-extract.js";
