/** Taking a workspace out of a container: a tar checked whole (no links, no escaping paths, caps) before a byte is written. */
export { extractSafely, planExtraction } from "./safe-extract.js";
