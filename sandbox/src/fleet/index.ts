/** Several engines behind the one port: placement by free slots, health checks, each engine's image and pool. */
export { DEFAULT_HEALTH, EngineFleet, type HealthSettings } from "./engine-fleet.js";
export { FleetMember, MAX_SLOTS } from "./fleet-member.js";
