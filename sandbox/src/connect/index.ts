/** The one wiring point: which engines a command uses, how each is reached (contexts, TLS, ssh), and the engine built from them. */
export { connectEngines, type ConnectOptions, type EngineConnector, type EngineOptions } from "./connect-engines.js";
export { engineSelection, EngineEntry, EngineSelection, EnginesFile, LOCAL_ENGINE } from "./engine-selection.js";
